/** Every dial or look-up the guard refused, in order. */
export declare const refusedDials: Array<string>
/** Whether a host is on loopback: 127.0.0.0/8, ::1 in any spelling, their IPv4-mapped forms, or localhost. */
export declare const isLoopbackHost: (host: string) => boolean

/**
 * Test-only network guard, loaded by every vitest project (setup file) and by every process a test spawns
 * (`node --import ./test-support/loopbackGuard.js`). Any TCP dial or DNS look-up for an address outside
 * 127.0.0.0/8 and ::1 is recorded and refused before a packet leaves the process, so a regression that reaches
 * for the internet fails its test instead of touching the network. Plain JavaScript so child processes can
 * load it without a TypeScript loader.
 */
import dns from "node:dns"
import net from "node:net"

const globals = /** @type {{ __websearchRefusedDials?: Array<string>, [key: symbol]: unknown }} */ (globalThis)

/** Every refused attempt, in order; tests read it to prove the guard fired. */
export const refusedDials = (globals.__websearchRefusedDials ??= [])

const loopbackNames = new Set(["localhost", "localhost.", "ip6-localhost"])

/**
 * Whether a host is on loopback: 127.0.0.0/8, ::1 in any spelling, their IPv4-mapped forms, or localhost.
 * @param {string} host
 * @returns {boolean}
 */
export const isLoopbackHost = (host) => {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  const lower = bare.toLowerCase()
  if (loopbackNames.has(lower)) return true
  const v4 = lower.startsWith("::ffff:") ? lower.slice(7) : lower
  if (net.isIPv4(v4)) return v4.split(".")[0] === "127"
  // Any IPv6 spelling of ::1 (expanded, zero-padded) parses to the same URL host.
  if (net.isIPv6(lower)) return new URL(`http://[${lower}]/`).hostname === "[::1]"
  return false
}

/**
 * @param {string} target
 * @returns {Error}
 */
const refusal = (target) => {
  refusedDials.push(target)
  const error = new Error(`loopback guard: refused to reach ${target} (tests may only use 127.0.0.0/8 and ::1)`)
  Object.assign(error, { code: "ECONNREFUSED" })
  return error
}

/**
 * @param {ReadonlyArray<unknown>} args
 * @returns {{ host?: string, path?: string }}
 */
const targetOf = (args) => {
  // net.connect() hands Socket#connect its already-normalised [options, callback] pair as one array argument.
  if (Array.isArray(args[0])) return targetOf(args[0])
  const [first, second] = args
  if (typeof first === "object" && first !== null) {
    const options = /** @type {{ host?: string, path?: string }} */ (first)
    if (typeof options.path === "string") return { path: options.path }
    return { host: options.host ?? "localhost" }
  }
  if (typeof first === "string" && !/^\d+$/.test(first)) return { path: first }
  return { host: typeof second === "string" ? second : "localhost" }
}

const guardKey = Symbol.for("@websearch/test/loopbackGuard")
if (globals[guardKey] !== true) {
  globals[guardKey] = true

  const originalConnect = net.Socket.prototype.connect
  /** @type {(this: net.Socket, ...args: Array<unknown>) => net.Socket} */
  const guardedConnect = function (...args) {
    const target = targetOf(args)
    if (target.path === undefined && target.host !== undefined && !isLoopbackHost(target.host)) {
      const error = refusal(target.host)
      process.nextTick(() => this.destroy(error))
      return this
    }
    return Reflect.apply(originalConnect, this, args)
  }
  net.Socket.prototype.connect = /** @type {net.Socket["connect"]} */ (/** @type {unknown} */ (guardedConnect))

  const originalLookup = dns.lookup
  /** @type {(hostname: string, ...rest: Array<unknown>) => void} */
  const guardedLookup = (hostname, ...rest) => {
    if (!isLoopbackHost(hostname)) {
      const callback = /** @type {(error: Error) => void} */ (rest[rest.length - 1])
      const error = refusal(hostname)
      process.nextTick(() => callback(error))
      return
    }
    Reflect.apply(originalLookup, dns, [hostname, ...rest])
  }
  Object.assign(dns, { lookup: guardedLookup })
  const originalPromisesLookup = dns.promises.lookup
  Object.assign(dns.promises, {
    /** @type {(hostname: string, ...rest: Array<unknown>) => Promise<unknown>} */
    lookup: (hostname, ...rest) =>
      isLoopbackHost(hostname)
        ? Reflect.apply(originalPromisesLookup, dns.promises, [hostname, ...rest])
        : Promise.reject(refusal(hostname))
  })
}

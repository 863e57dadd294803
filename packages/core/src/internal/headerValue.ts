/**
 * Values the providers send in an HTTP header (API keys, the User-Agent, basic-auth credentials): a CR or LF in
 * one would split the header (the transport refuses it at the first call, far from the setting that caused it),
 * and a NUL or other control character is never part of a real key. So they are refused when the settings load,
 * naming the field (never the value: it may be a key).
 */
import * as Schema from "effect/Schema"

// C0 controls (CR, LF, NUL, TAB, …), DEL and the C1 controls.
const control = /[\u0000-\u001f\u007f-\u009f]/u

/** Whether `value` may be sent as (part of) an HTTP header value. */
export const isHeaderSafe = (value: string): boolean => !control.test(value)

/** The filter on a string setting that is sent in a header. */
export const headerSafe = <S extends Schema.Schema<string, string, never>>(self: S) =>
  self.pipe(
    Schema.filter((value: string) =>
      isHeaderSafe(value)
        ? true
        : "must not contain control characters (CR, LF, NUL, ...): it is sent in an HTTP header"
    )
  )

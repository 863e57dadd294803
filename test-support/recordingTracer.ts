import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"

/** A tracer that records every span it makes, made by the current (default) tracer's own implementation. */
export const recordingTracer: Effect.Effect<{ readonly spans: Array<Tracer.Span>; readonly tracer: Tracer.Tracer }> =
  Effect.map(Effect.tracer, (base) => {
    const spans: Array<Tracer.Span> = []
    const tracer = Tracer.make({
      span: (name, parent, context, links, startTime, kind, options) => {
        const span = base.span(name, parent, context, links, startTime, kind, options)
        spans.push(span)
        return span
      },
      context: (f, fiber) => base.context(f, fiber)
    })
    return { spans, tracer }
  })

/** Runs an effect under a recording tracer and returns its value with the spans it made. */
export const recording = <A, E, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<{ readonly value: A; readonly spans: ReadonlyArray<Tracer.Span> }, E, R> =>
  Effect.flatMap(recordingTracer, ({ spans, tracer }) =>
    Effect.map(Effect.withTracer(self, tracer), (value) => ({ value, spans }))
  )

/** The name of a span's parent span, if it has one. */
export const parentName = (span: Tracer.Span): string | undefined =>
  Option.match(span.parent, { onNone: () => undefined, onSome: (p) => (p._tag === "Span" ? p.name : undefined) })

const json = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ?? ""

/**
 * Everything a span holds that an exporter sends, as text: name, attributes, events, links, and the failure it
 * ended with (an exporter records a failure's cause as an exception; a success value is never exported).
 */
export const spanText = (span: Tracer.Span): string => {
  const native = span as Tracer.Span & { readonly events?: ReadonlyArray<unknown> }
  const failure = span.status._tag === "Ended" && Exit.isFailure(span.status.exit) ? json(span.status.exit.cause) : ""
  return [
    span.name,
    json(Object.fromEntries(span.attributes)),
    json(native.events ?? []),
    json(span.links.map((link) => ({ ...link.attributes }))),
    failure
  ].join(" ")
}

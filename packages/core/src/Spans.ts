/**
 * Spans that cost (almost) nothing when nobody records them. `Effect.withSpan` makes a span and provides it to
 * the wrapped effect even under the default tracer, which records nothing; on a request path with half a dozen
 * boundaries that is a large share of the work. These combinators make the same spans, with the same names,
 * parents and attributes, whenever a tracer is installed (`Effect.withTracer`, `Layer.setTracer`, OpenTelemetry),
 * and skip them under the default one.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { dual } from "effect/Function"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"

const defaultTracer = Context.get(DefaultServices.liveServices, Tracer.Tracer)

/**
 * Whether a fiber runs under a tracer other than the default, non-recording one.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isRecording = (fiber: Fiber.RuntimeFiber<unknown, unknown>): boolean =>
  fiber.currentTracer !== defaultTracer

/**
 * Whether the fiber running this call (if any) is under a recording tracer; for synchronous callbacks such as
 * `HttpMiddleware.currentTracerDisabledWhen`, which run inside a fiber but get no handle on it.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isRecordingNow = (): boolean => Option.exists(Fiber.getCurrentFiber(), isRecording)

/**
 * `Effect.withSpan` when a tracer is installed; the effect unchanged otherwise.
 *
 * @since 0.1.0
 * @category tracing
 */
export const withSpan: {
  (name: string, options?: Tracer.SpanOptions): <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>, name: string, options?: Tracer.SpanOptions): Effect.Effect<A, E, R>
} = dual(
  (args) => Effect.isEffect(args[0]),
  <A, E, R>(self: Effect.Effect<A, E, R>, name: string, options?: Tracer.SpanOptions): Effect.Effect<A, E, R> =>
    Effect.withFiberRuntime<A, E, R>((fiber) => (isRecording(fiber) ? Effect.withSpan(self, name, options) : self))
)

/**
 * `Effect.annotateCurrentSpan` when a tracer is installed; nothing otherwise.
 *
 * @since 0.1.0
 * @category tracing
 */
export const annotateCurrentSpan = (values: Record<string, unknown>): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) => (isRecording(fiber) ? Effect.annotateCurrentSpan(values) : Effect.void))

/**
 * The `openai` provider: the `research` capability on OpenAI's Responses API with the hosted `web_search` tool,
 * streamed and read event by event.
 *
 * One research call is one `POST {apiHost}/responses` (the preset's apiHost is `https://api.openai.com/v1`) with
 * the brief as input, the domain allowlist as the tool's `filters.allowed_domains`, and the search sources
 * included. The answer must carry evidence: a non-empty report, at least one completed search call and at least
 * one cited http(s) source, else `ResponseInvalid/no_evidence` — a report without citations cannot be told apart
 * from an answer from memory. A stream that ends before its completion event is a transport fault
 * (`RequestFailed/stream_incomplete`, retryable), never an evidence failure. Usage (tokens and search calls,
 * priced from `OpenAiPrices`) goes to the `UsageSink` once per call, before the evidence gate and on every failure
 * that comes with final usage; a failing sink never fails the research.
 *
 * Settings: the key comes from configuration only (`OPENAI_API_KEY` or `providers.openai.apiKeys`); the model from
 * `providers.openai.model` / `OPENAI_MODEL` (a bare model id present in `OpenAiPrices`, else
 * `Unavailable/unpriced_model` before any request; default `OpenAiPrices.defaultModel`); the endpoint from
 * `providers.openai.capabilities.research.apiHost` / `OPENAI_API_HOST`; the timeout from `timeouts.research`
 * (default 300 s), enforced by the research pipeline as `RequestFailed/timeout`, distinct from a caller's
 * cancellation (interruption, `Aborted`), which closes the connection.
 *
 * Report text, titles and URLs are third-party data: the report may contain instructions aimed at a model; it
 * is returned as data, and the request's instructions tell the hosted model to treat pages the same way.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as Composition from "@websearch/core/Composition"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Preset from "@websearch/core/Preset"
import * as DriverContext from "@websearch/core/internal/resolution/context"
import type * as ProviderDriver from "@websearch/core/ProviderDriver"
import * as ProviderRegistry from "@websearch/core/ProviderRegistry"
import * as Settings from "@websearch/core/Settings"
import * as UsageSink from "@websearch/core/UsageSink"
import * as WebSearchError from "@websearch/core/WebSearchError"
import type { ResearchRequest } from "@websearch/core/WebSearchRequest"
import type { ResearchResponse } from "@websearch/core/WebSearchResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Evidence from "./internal/evidence.js"
import * as ProviderClient from "./internal/providerClient.js"
import type * as Responses from "./internal/openAiResponses.js"
import * as Errors from "./internal/openAiErrors.js"
import * as OpenAiStream from "./internal/openAiStream.js"
import * as OpenAiPrices from "./OpenAiPrices.js"
import { type PricedModel, requestBody, resolveModel } from "./internal/openAiWire.js"

/**
 * The provider id.
 *
 * @since 0.1.0
 * @category constants
 */
export const providerId = Errors.providerId

/**
 * The `openai` preset: capability `research` at `https://api.openai.com/v1`, API key required.
 *
 * @since 0.1.0
 * @category constants
 */
export const preset: Preset.Preset = Preset.make({
  id: providerId,
  name: "OpenAI web search",
  type: "api",
  credentials: "required",
  capabilities: [{ feature: "research", apiHost: "https://api.openai.com/v1" }]
})

type Output = Omit<ResearchResponse, "providerId" | "query">

const reportUsage = (
  ctx: ProviderDriver.DriverContext,
  request: ResearchRequest,
  priced: PricedModel,
  callId: string,
  run: Responses.Run,
  outcome: "succeeded" | "failed"
): Effect.Effect<void> => {
  const usage = run.usage
  if (usage === undefined) return Effect.void
  const toolCalls = run.completedSearchCalls
  return UsageSink.report(
    {
      callId,
      providerId,
      capability: "research",
      model: priced.model,
      ...(run.responseId === undefined ? {} : { providerCallId: run.responseId }),
      inputTokens: usage.inputTokens,
      cachedInputTokens: usage.cachedInputTokens,
      outputTokens: usage.outputTokens,
      ...(usage.reasoningTokens === undefined ? {} : { reasoningTokens: usage.reasoningTokens }),
      toolCalls,
      outcome,
      cost: OpenAiPrices.price(priced.price, { ...usage, toolCalls })
    },
    ctx.usageSink
  ).pipe(Effect.annotateLogs({ input: request.query }))
}

const research: (
  client: HttpClient.HttpClient,
  request: ResearchRequest,
  ctx: ProviderDriver.DriverContext
) => Effect.Effect<Output, WebSearchError.WebSearchError> = Effect.fnUntraced(
  function* (client, request, ctx) {
    const priced = resolveModel(ctx.provider.model)
    if (Either.isLeft(priced)) {
      return yield* Effect.fail(WebSearchError.annotate(priced.left, { input: request.query }))
    }
    const model = priced.right
    // Checked by the request's resolution (the preset requires a key; its endpoint is set): these fail, typed,
    // only for a driver called directly without them.
    const withCall = (error: WebSearchError.Unavailable) => WebSearchError.annotate(error, Errors.ctxOf(request))
    const apiKey = yield* Effect.mapError(DriverContext.apiKey(ctx), withCall)
    const secret = Redacted.value(apiKey)
    const url = `${yield* Effect.mapError(DriverContext.apiHost(ctx), withCall)}/responses`
    yield* Effect.annotateCurrentSpan({ "websearch.openai.model": model.model })
    const callId = crypto.randomUUID()

    const response = yield* client
      .execute(
        HttpClientRequest.post(url).pipe(
          HttpClientRequest.bearerToken(apiKey),
          HttpClientRequest.setHeader("accept", "text/event-stream"),
          HttpClientRequest.bodyUnsafeJson(requestBody(request, model.model))
        )
      )
      .pipe(
        Effect.catchTag("RequestError", (error) => Effect.fail(Errors.transportError(request, error))),
        Effect.catchTag("ResponseError", (error) =>
          Effect.fail(
            WebSearchError.requestFailed(
              "network",
              `OpenAI's answer could not be read (${error.reason})`,
              Errors.ctxOf(request)
            )
          )
        )
      )
    if (response.status !== 200) {
      const body = yield* OpenAiStream.readErrorBody(response)
      return yield* Effect.fail(Errors.statusError(request, response, body, secret))
    }
    const contentType = response.headers["content-type"] ?? ""
    if (!contentType.toLowerCase().includes("text/event-stream")) {
      yield* OpenAiStream.readErrorBody(response)
      return yield* Effect.fail(
        WebSearchError.responseInvalid(
          "decode_failed",
          `OpenAI answered with ${contentType === "" ? "no content type" : `"${Errors.providerText(contentType, secret)}"`} instead of an event stream`,
          Errors.ctxOf(request)
        )
      )
    }

    const run = yield* OpenAiStream.readRun(request, response)
    const ending = run.ending ?? { _tag: "Completed" as const }
    if (ending._tag === "Failed") {
      yield* reportUsage(ctx, request, model, callId, run, "failed")
      return yield* Effect.fail(Errors.failedRun(request, ending.code, ending.message, secret))
    }
    if (ending._tag === "Incomplete") {
      yield* reportUsage(ctx, request, model, callId, run, "failed")
      return yield* Effect.fail(
        WebSearchError.responseInvalid(
          "empty_content",
          `OpenAI ended the research incomplete (${ending.reason ?? "no reason given"}); the report was not finished`,
          Errors.ctxOf(request)
        )
      )
    }

    const projected = Evidence.project(run)
    const gate =
      projected.report.trim() === ""
        ? Errors.noEvidence(request, "the report is empty")
        : run.completedSearchCalls === 0
          ? Errors.noEvidence(request, "no web search call completed")
          : projected.citedSources === 0
            ? Errors.noEvidence(request, "the report cites no http(s) source")
            : undefined
    // Usage first: the run was billed whether or not its answer passes the gate.
    yield* reportUsage(ctx, request, model, callId, run, gate === undefined ? "succeeded" : "failed")
    if (gate !== undefined) return yield* Effect.fail(gate)

    if (projected.reportTruncatedFrom !== undefined) {
      yield* Effect.logWarning(
        `websearch openai report truncated from ${projected.reportTruncatedFrom} to ${projected.report.length} characters`
      ).pipe(Effect.annotateLogs({ providerId, input: request.query }))
    }
    if (projected.droppedUrls > 0 || projected.sourcesOverCap > 0) {
      yield* Effect.logDebug(
        `websearch openai dropped ${projected.droppedUrls} non-http(s) URL(s) and ${projected.sourcesOverCap} source(s) over the cap of ${Evidence.caps.sources}`
      ).pipe(Effect.annotateLogs({ providerId, input: request.query }))
    }
    return { report: projected.report, queries: projected.queries, sources: projected.sources, images: [] }
  },
  (effect, _client, request) =>
    Effect.withSpan(effect, "websearch.openai.research", {
      captureStackTrace: false,
      attributes: { "websearch.provider": providerId, "websearch.research.domains": request.allowedDomains.length }
    })
)

/**
 * Builds the driver with the `HttpClient` in context (captured now, so this provider may be given its own client).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<ProviderDriver.ProviderDriver, never, HttpClient.HttpClient> = Effect.map(
  // The provider client every driver shares: credentials redacted in its span.
  ProviderClient.client,
  (client) => ({ preset, research: (request, ctx) => research(client, request, ctx) })
)

/**
 * Registers the `openai` driver. When the settings are already in context, a configured model that cannot run
 * is reported in the log at once (research with it fails with `Unavailable/unpriced_model` before any request).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<never, never, Composition.Composition | HttpClient.HttpClient> = Layer.unwrapEffect(
  Effect.gen(function* () {
    const settings = yield* Effect.serviceOption(Settings.Settings)
    if (Option.isSome(settings)) {
      const configured = Option.fromNullable(settings.value.overrides.get(providerId)?.model)
      const checked = resolveModel(configured)
      if (Either.isLeft(checked)) yield* Effect.logWarning(`websearch openai: ${checked.left.message}`)
    }
    return ProviderRegistry.register(yield* make)
  })
)

/**
 * One fetched body -> one model-readable document. Decides what the body is (Content-Type, then sniffing),
 * decodes it with the right charset and turns it into markdown: HTML through main-content detection (with a
 * whole-page fallback), feeds as their items, JSON pretty-printed, text and markdown as they are, PDF as text
 * per page. Pure JavaScript without Node APIs, so it runs in browsers and edge runtimes too.
 *
 * Three entry points share one core: {@link extract} (an Effect, for callers inside Effect), {@link extractAsync}
 * (a plain promise that never rejects, cheap to call from a worker thread) and {@link extractSync} (every kind
 * except PDF, synchronously). The work itself is `ExtractCore`'s; this module makes its failures `ResponseInvalid`.
 *
 * @since 0.1.0
 */
import * as WebSearchError from "@websearch/core/WebSearchError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ContentKind from "./internal/contentKind.js"
import * as ExtractCore from "./internal/extractCore.js"

/**
 * A fetched body.
 *
 * @since 0.1.0
 * @category models
 */
export type Input = ExtractCore.Input

/**
 * The extracted document.
 *
 * @since 0.1.0
 * @category models
 */
export type Document = ExtractCore.Document

/**
 * @since 0.1.0
 * @category models
 */
export type Options = ExtractCore.Options

/**
 * Whether a Content-Type names a body `extract` can read, or one it sniffs (absent, `application/octet-stream`).
 * A sniffed body may still turn out to be binary and be refused.
 *
 * @since 0.1.0
 * @category guards
 */
export const supportedContentType: (contentType: string | undefined) => boolean = ExtractCore.supportedContentType

const invalid = (input: Input, failure: ExtractCore.Failure): WebSearchError.ResponseInvalid =>
  WebSearchError.responseInvalid(failure.reason, failure.message, { input: input.url })

const typed = (
  input: Input,
  result: Either.Either<Document, ExtractCore.Failure>
): Either.Either<Document, WebSearchError.ResponseInvalid> =>
  Either.mapLeft(result, (failure) => invalid(input, failure))

/**
 * Extracts every kind except PDF synchronously (PDF parsing is asynchronous in every maintained pure-JS engine;
 * a PDF body gets `ResponseInvalid/unsupported_content_type` naming {@link extractAsync}). CPU-bound: measured on
 * a shared 2-vCPU machine, a real 5 MiB news page took 0.5-0.6 s, a synthetic 5.8 MiB article 1.9 s and a flat
 * 1 MiB page of 6 600 paragraphs 1.4 s (Readability is superlinear there), with a few hundred MiB of DOM; run big
 * bodies in a worker. Never throws.
 *
 * @since 0.1.0
 * @category utils
 */
export const extractSync = (input: Input, options?: Options): Either.Either<Document, WebSearchError.ResponseInvalid> =>
  typed(input, ExtractCore.extractSync(input, options))

/**
 * Extracts any supported kind, PDF included, as a plain promise that never rejects.
 *
 * @since 0.1.0
 * @category utils
 */
export const extractAsync = async (
  input: Input,
  options?: Options & { readonly signal?: AbortSignal }
): Promise<Either.Either<Document, WebSearchError.ResponseInvalid>> =>
  typed(input, await ExtractCore.extractAsync(input, options))

/**
 * Extracts a fetched body into a {@link Document}. Fails with `ResponseInvalid`: `unsupported_content_type`
 * (images, video, binary that sniffs as neither text nor PDF, ...), `empty_content` (nothing readable) or
 * `parse_failed` (a corrupt PDF, ...). Never defects. Interrupting it stops PDF parsing between pages.
 *
 * @since 0.1.0
 * @category utils
 */
export const extract = (input: Input, options?: Options): Effect.Effect<Document, WebSearchError.ResponseInvalid> =>
  Effect.suspend(() =>
    ExtractCore.isPdf(input)
      ? Effect.flatMap(
          Effect.promise((signal) => ExtractCore.extractAsync(input, { ...options, signal })),
          (result) => typed(input, result)
        )
      : typed(input, ExtractCore.extractSync(input, options))
  ).pipe(
    Effect.withSpan("websearch.extract", {
      captureStackTrace: false,
      attributes: {
        "websearch.content_type": ContentKind.mediaType(input.contentType) ?? "",
        "websearch.bytes": input.body.length
      }
    })
  )

/**
 * One input's call as every stage of the pipeline sees it. The stages, in the order the pipeline composes them:
 * `urlGate`, `privateHostGuard`, `blacklistGate` (refusals before anything is sent), then `callGuard` around
 * `cache` around `quota` around `resultCheck` around `driverCall`.
 */
import * as Effect from "effect/Effect"
import type { Capability, ListCapability } from "../../Capability.js"
import type { DriverContext, DriverResult } from "../../ProviderDriver.js"
import { CallInstances } from "../../ProviderInstance.js"
import type * as ResultCache from "../../ResultCache.js"
import type * as WebSearchError from "../../WebSearchError.js"
import { variantOf } from "../answerVariant.js"
import type { Env } from "../pipelineEnv.js"
import type { Resolved } from "../resolution/check.js"

/** One input of one request, on its resolved provider. */
export interface InputCall {
  readonly env: Env
  readonly resolved: Resolved<unknown>
  readonly capability: Capability
  readonly input: string
}

/** One input of a list capability, as the capability service adapts its driver method. */
export type ListCall = (
  input: string,
  ctx: DriverContext
) => Effect.Effect<ReadonlyArray<DriverResult>, WebSearchError.WebSearchError>

/** Whether a capability's input is a URL websearch checks before a call: fetched pages and sites' start and pages. */
export const isUrlCapability = (capability: Capability): boolean =>
  capability === "fetchUrls" || capability === "mapSite" || capability === "crawlSite"

/** The context every error of the call carries. */
export const errorContext = (call: InputCall) => ({
  providerId: call.resolved.providerId,
  capability: call.capability,
  input: call.input
})

/**
 * The scope of a call instance's cache entries (its workspace, id and revision), so two workspaces' instances of
 * one id never share an entry; none for a composed provider or settings instance, whose keys stay as they were.
 */
export const scopeOf = (call: InputCall): { readonly scope?: string } =>
  call.resolved.stateKey === call.resolved.providerId ? {} : { scope: call.resolved.stateKey }

/**
 * The cache request of a list call: what decides its answer (provider, instance scope, endpoint, engines, count,
 * search options, the configuration's variant) and the workspace it is made for, whose entries are its own.
 */
export const requestOf = (
  call: InputCall & { readonly capability: ListCapability },
  ctx: DriverContext
): Effect.Effect<ResultCache.Request> =>
  Effect.zipWith(CallInstances, variantOf(ctx.provider), ({ workspace }, variant) => ({
    providerId: call.resolved.providerId,
    ...scopeOf(call),
    capability: call.capability,
    input: call.input,
    maxResults: ctx.maxResults,
    apiHost: ctx.apiHost,
    engines: call.resolved.provider.engines,
    searchOptions: ctx.searchOptions,
    workspace,
    ...(variant === undefined ? {} : { variant })
  }))

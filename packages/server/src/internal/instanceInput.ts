/**
 * The checks of a management route's path segments. The bodies are decoded by core's
 * `ProviderStoreRules.decodeCreateInstance` and friends, and judged by `ProviderRegistry.checkInstance`.
 */
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"

const decodeWorkspace = Schema.decodeUnknownEither(ProviderInstance.WorkspaceId)
const decodeId = Schema.decodeUnknownEither(ProviderInstance.InstanceId)

/** Whether a path segment is a valid workspace id (an invalid one can be nobody's workspace). */
export const isWorkspace = (value: string): value is ProviderInstance.WorkspaceId =>
  Either.isRight(decodeWorkspace(value))

/** Whether a path segment is a valid instance id (an invalid one can name no instance). */
export const isInstanceId = (value: string): boolean => Either.isRight(decodeId(value))

/**
 * The provider-management part of the HTTP API: a workspace's provider instances under
 * `/v1/workspaces/{workspace}/providers` (list, create, read, update, delete, write-only credentials, a test of
 * each capability) and the catalogue of the provider types instances can configure (`GET /v1/provider-types`).
 * Answers show an instance as core's `InstanceView`: its keys counted, never shown. Only an admin token of the
 * workspace manages it; any other workspace's routes answer 404, so a token learns nothing of other workspaces.
 *
 * @since 0.2.0
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as ProviderChecks from "@websearch/core/ProviderChecks"
import * as ProviderInstance from "@websearch/core/ProviderInstance"
import * as ProviderStore from "@websearch/core/ProviderStore"
import * as ProviderTypes from "@websearch/core/ProviderTypes"
import * as Schema from "effect/Schema"
import { Authorization } from "./internal/authorization.js"
import * as ErrorStatus from "./ErrorStatus.js"
import * as EndpointErrors from "./internal/endpointErrors.js"
import { withExample } from "./internal/openApiExample.js"

/**
 * The example body of each management request, as the OpenAPI document shows it.
 */
const examples = {
  create: {
    id: "production-searxng",
    type: "searxng",
    name: "Production SearXNG",
    settings: { capabilities: { searchKeywords: { apiHost: "https://searx.example.com" } }, engines: ["google"] }
  },
  update: { name: "Production SearXNG (EU)", settings: { engines: ["google", "bing"] }, revision: 1 },
  credentials: { apiKeys: ["a-provider-api-key"] }
} as const

const workspace = Schema.String.annotations({ description: "The workspace: the token's own" })
const WorkspacePath = Schema.Struct({ workspace })
const InstancePath = Schema.Struct({
  workspace,
  id: Schema.String.annotations({ description: "The instance id (production-bing, test-searxng, ...)" })
})

const list = HttpApiEndpoint.get("listInstances", "/v1/workspaces/:workspace/providers")
  .setPath(WorkspacePath)
  .addSuccess(Schema.Array(ProviderInstance.InstanceView))
  .addError(EndpointErrors.instance)
  .annotate(OpenApi.Summary, "List a workspace's provider instances")
  .annotate(
    OpenApi.Description,
    "The workspace's provider instances, by id, each with its settings and how many keys it has (never a key). " +
      "Needs an admin token of the workspace; another workspace answers 404."
  )

const create = HttpApiEndpoint.post("createInstance", "/v1/workspaces/:workspace/providers")
  .setPath(WorkspacePath)
  .setPayload(ProviderStore.CreateInstance)
  .addSuccess(ProviderInstance.InstanceView, { status: 201 })
  .addError(EndpointErrors.instance)
  .addError(EndpointErrors.body)
  .addError(ErrorStatus.Conflict)
  .annotate(OpenApi.Summary, "Create a provider instance")
  .annotate(
    OpenApi.Description,
    "Creates an instance of a provider type (see `GET /v1/provider-types`) under an id of your choosing, with its " +
      "settings and, optionally, its credentials. An unknown type, an id of a provider type or options the type " +
      "refuses answer 400 naming the field; an id the workspace has already answers 409. The instance is usable " +
      "by the workspace's next search."
  )
  .annotate(OpenApi.Transform, withExample("A SearXNG server of the workspace", examples.create))

const read = HttpApiEndpoint.get("readInstance", "/v1/workspaces/:workspace/providers/:id")
  .setPath(InstancePath)
  .addSuccess(ProviderInstance.InstanceView)
  .addError(EndpointErrors.instance)
  .annotate(OpenApi.Summary, "Read a provider instance")
  .annotate(OpenApi.Description, "One instance: its type, settings, revision and how many keys it has (never a key).")

const update = HttpApiEndpoint.patch("updateInstance", "/v1/workspaces/:workspace/providers/:id")
  .setPath(InstancePath)
  .setPayload(ProviderStore.UpdateInstance)
  .addSuccess(ProviderInstance.InstanceView)
  .addError(EndpointErrors.instance)
  .addError(EndpointErrors.body)
  .addError(ErrorStatus.Conflict)
  .annotate(OpenApi.Summary, "Update a provider instance")
  .annotate(
    OpenApi.Description,
    "Replaces the instance's name, settings and/or credentials (each whole, when given). Settings that send an " +
      "instance's credentials somewhere else (an endpoint or the proxy changes) must come with `credentials` in " +
      "the same request (the keys for the new place, or `{}` for none), else 400 naming the fields: a key never " +
      "follows an endpoint it was not set for. With `revision`, only if the instance is still at that revision " +
      "(else 409: read it again). Credentials alone change through `PUT …/credentials`."
  )
  .annotate(OpenApi.Transform, withExample("New settings, if unchanged since revision 1", examples.update))

const remove = HttpApiEndpoint.del("deleteInstance", "/v1/workspaces/:workspace/providers/:id")
  .setPath(InstancePath)
  .addSuccess(HttpApiSchema.NoContent)
  .addError(EndpointErrors.instance)
  .annotate(OpenApi.Summary, "Delete a provider instance")
  .annotate(OpenApi.Description, "Removes the instance and its credentials; the next search can no longer name it.")

const credentials = HttpApiEndpoint.put("setCredentials", "/v1/workspaces/:workspace/providers/:id/credentials")
  .setPath(InstancePath)
  .setPayload(ProviderInstance.InstanceCredentials)
  .addSuccess(ProviderInstance.InstanceView)
  .addError(EndpointErrors.instance)
  .addError(EndpointErrors.body)
  .annotate(OpenApi.Summary, "Set a provider instance's credentials")
  .annotate(
    OpenApi.Description,
    "Replaces the instance's API keys and basic-auth password whole (`{}` clears them). Write-only: the answer " +
      "and every later read show how many keys there are, never a key. The next search uses the new keys."
  )
  .annotate(OpenApi.Transform, withExample("One API key", examples.credentials))

const test = HttpApiEndpoint.post("testInstance", "/v1/workspaces/:workspace/providers/:id/test")
  .setPath(InstancePath)
  .addSuccess(ProviderChecks.ProviderCheck)
  .addError(EndpointErrors.instance)
  .annotate(OpenApi.Summary, "Test a provider instance")
  .annotate(
    OpenApi.Description,
    "Runs every capability of the instance once with a stable input, as `POST /v1/providers/{id}/check` does for " +
      "a provider, and reports each capability's outcome (a failed capability is in the answer, not an error)."
  )

const types = HttpApiEndpoint.get("providerTypes", "/v1/provider-types")
  .addSuccess(Schema.Array(ProviderTypes.ProviderType))
  .annotate(OpenApi.Summary, "List the provider types")
  .annotate(
    OpenApi.Description,
    "The provider types an instance may configure: the composed provider modules, with their capabilities, " +
      "whether they need a key, the JSON Schema of their options and the search options they honour."
  )

/**
 * The management endpoints. Each needs a bearer token; the instance routes an admin token of the workspace.
 *
 * @since 0.2.0
 * @category constants
 */
export class Management extends HttpApiGroup.make("management")
  .add(types)
  .add(list)
  .add(create)
  .add(read)
  .add(update)
  .add(remove)
  .add(credentials)
  .add(test)
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "A workspace's provider instances (admin token of the workspace) and the catalogue of provider types. " +
      "Needs a provider store on the server (503 without one)."
  ) {}

// What the CLI's bundle takes of undici (scripts/bundle.mjs routes every `undici` import here): its dispatchers
// (Agent, Pool, Client, ProxyAgent), the connector, the errors and the global dispatcher, with the request API on
// every dispatcher as undici's own index puts it there. The index also loads fetch, WebSocket, EventSource, the
// HTTP cache and the mocks, none of which the CLI uses: about 40 ms of CPU and 7 MiB at every start.
// A name some module imports and this file lacks fails the bundle's build ("No matching export"), not a run.
import api from "undici/lib/api/index.js"
import buildConnector from "undici/lib/core/connect.js"
import errors from "undici/lib/core/errors.js"
import Agent from "undici/lib/dispatcher/agent.js"
import Client from "undici/lib/dispatcher/client.js"
import Dispatcher from "undici/lib/dispatcher/dispatcher.js"
import Pool from "undici/lib/dispatcher/pool.js"
import ProxyAgent from "undici/lib/dispatcher/proxy-agent.js"
import globalDispatcher from "undici/lib/global.js"

Object.assign(Dispatcher.prototype, api)

const { getGlobalDispatcher, setGlobalDispatcher } = globalDispatcher

export { Agent, buildConnector, Client, Dispatcher, errors, getGlobalDispatcher, Pool, ProxyAgent, setGlobalDispatcher }

export default {
  Agent,
  buildConnector,
  Client,
  Dispatcher,
  errors,
  getGlobalDispatcher,
  Pool,
  ProxyAgent,
  setGlobalDispatcher
}

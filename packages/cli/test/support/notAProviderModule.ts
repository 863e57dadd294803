/** A module whose `layer` export is not a Layer: `WEBSEARCH_PROVIDER_MODULES` must refuse it. */
export const layer = { register: "not a Layer" }

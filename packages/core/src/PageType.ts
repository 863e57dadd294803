/**
 * What kind of page a fetched result was read as, so an agent or a user can judge its text: a forum thread keeps
 * every post, a product page its offer and specifications, a collection or listing its items, a service page its
 * sections. Set by the local fetch provider from its extractor's decision; remote fetch providers (which answer
 * markdown, not HTML) and search results leave it out. The same list as `@websearch/extract`'s `PageType`.
 *
 * @since 0.2.0
 */
import * as Schema from "effect/Schema"

/**
 * - `article`: news, blog posts, essays, recipes — one body of prose.
 * - `forum`: a thread of posts (Q&A sites, discussion boards, issue trackers).
 * - `product`: one product or offer (name, price, availability, description, specifications).
 * - `collection`: a category or grid of items to choose from.
 * - `listing`: a list of entries (search results, an archive, a directory, job listings).
 * - `documentation`: reference or guide pages of software or a product.
 * - `service`: a service, company or landing page of short sections (hero, features, pricing, FAQ).
 * - `other`: anything else, and every body that is not HTML (PDF, JSON, feeds, text).
 *
 * @since 0.2.0
 * @category schemas
 */
export const PageType = Schema.Literal(
  "article",
  "forum",
  "product",
  "collection",
  "listing",
  "documentation",
  "service",
  "other"
).annotations({
  identifier: "PageType",
  description:
    "What kind of page the fetched result was read as: article, forum, product, collection, listing, documentation, service or other (any body that is not HTML)"
})

/**
 * @since 0.2.0
 * @category models
 */
export type PageType = typeof PageType.Type

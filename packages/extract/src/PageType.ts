/**
 * What kind of page an HTML document was read as. Extraction keeps what matters on each kind (every post of a
 * forum thread, a product's offer and specifications, the items of a collection or listing, the sections of a
 * service page, the code and tables of documentation) and says which kind it chose, so a caller can judge the text.
 *
 * @since 0.2.0
 */

/**
 * - `article`: news, blog posts, essays, recipes — one body of prose.
 * - `forum`: a thread of posts (Q&A sites, discussion boards, issue trackers, comment threads as the page's point).
 * - `product`: one product or offer (name, price, availability, description, specifications).
 * - `collection`: a category or grid of items (products, courses, recipes) to choose from.
 * - `listing`: a list of entries (search results, an archive, a directory, job or real-estate listings); an RSS or
 *   Atom feed is one too.
 * - `documentation`: reference or guide pages of software or a product.
 * - `service`: a service, company or landing page of short sections (hero, features, pricing, FAQ).
 * - `other`: anything else, and every body that is neither HTML nor a feed (text, markdown, JSON, other XML, PDF).
 *
 * @since 0.2.0
 * @category models
 */
export type PageType =
  "article" | "forum" | "product" | "collection" | "listing" | "documentation" | "service" | "other"

/**
 * Every page type, in a fixed order.
 *
 * @since 0.2.0
 * @category constants
 */
export const pageTypes: ReadonlyArray<PageType> = [
  "article",
  "forum",
  "product",
  "collection",
  "listing",
  "documentation",
  "service",
  "other"
]

/**
 * @since 0.2.0
 * @category guards
 */
export const isPageType = (u: unknown): u is PageType => typeof u === "string" && pageTypes.includes(u as PageType)

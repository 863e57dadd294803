/**
 * The numbers page-type detection weighs: the signals of `pageSignals.ts` as a fixed vector (counts on a log scale,
 * shares as fractions, structured data and URL and title words as 0/1 per group). The learned scorer
 * (`pageTypeModel.ts`, trained by `scripts/train-page-types.ts`) holds one weight per name here, in this order.
 */
import type * as PageSignals from "./pageSignals.js"
import { classWords, countedTags, labels } from "./pageSignals.js"

/** Structured data types (JSON-LD `@type`, microdata, `og:type` as `og:<value>`), in groups. */
const typeGroups: Readonly<Record<string, ReadonlyArray<string>>> = {
  article: [
    "Article",
    "NewsArticle",
    "BlogPosting",
    "Report",
    "ScholarlyArticle",
    "OpinionNewsArticle",
    "AnalysisNewsArticle",
    "ReportageNewsArticle",
    "LiveBlogPosting",
    "Recipe",
    "og:article"
  ],
  forum: ["DiscussionForumPosting", "QAPage", "Question", "Answer", "Comment", "SocialMediaPosting", "Conversation"],
  product: ["Product", "ProductGroup", "Offer", "AggregateOffer", "IndividualProduct", "ProductModel", "og:product"],
  collection: ["CollectionPage", "OfferCatalog", "ItemList"],
  listing: ["SearchResultsPage", "JobPosting", "RealEstateListing", "Event", "Place"],
  documentation: ["TechArticle", "APIReference", "SoftwareSourceCode", "HowTo"],
  service: [
    "Service",
    "Organization",
    "LocalBusiness",
    "SoftwareApplication",
    "WebApplication",
    "Corporation",
    "ProfessionalService",
    "FAQPage",
    "Brand"
  ],
  page: ["WebPage", "WebSite", "AboutPage", "ContactPage", "og:website"],
  breadcrumb: ["BreadcrumbList"],
  person: ["Person", "ProfilePage"],
  review: ["Review", "AggregateRating"]
}

/** URL path and title words, in groups. */
const wordGroups: Readonly<Record<string, ReadonlyArray<string>>> = {
  forum: [
    "forum",
    "forums",
    "thread",
    "threads",
    "topic",
    "topics",
    "viewtopic",
    "showthread",
    "questions",
    "discussion",
    "discussions",
    "community",
    "comments",
    "t",
    "d",
    "board",
    "boards",
    "issues"
  ],
  documentation: [
    "docs",
    "doc",
    "documentation",
    "reference",
    "api",
    "manual",
    "guide",
    "guides",
    "learn",
    "tutorial",
    "help",
    "developer",
    "developers",
    "wiki",
    "library"
  ],
  product: ["product", "products", "p", "dp", "item", "buy", "sku", "prod", "gp"],
  collection: [
    "category",
    "categories",
    "collections",
    "collection",
    "c",
    "shop",
    "store",
    "catalog",
    "browse",
    "dept"
  ],
  listing: [
    "search",
    "tag",
    "tags",
    "archive",
    "archives",
    "jobs",
    "listings",
    "results",
    "list",
    "directory",
    "events"
  ],
  article: ["blog", "news", "article", "articles", "story", "stories", "post", "posts", "opinion", "recipe", "recipes"],
  service: [
    "pricing",
    "services",
    "service",
    "solutions",
    "features",
    "about",
    "contact",
    "platform",
    "enterprise",
    "plans",
    "company",
    "why",
    "industries"
  ]
}

const groupNames = (prefix: string, groups: Readonly<Record<string, unknown>>) =>
  Object.keys(groups).map((g) => `${prefix}:${g}`)

/** The names of the features, in vector order. */
export const names: ReadonlyArray<string> = [
  "bias",
  "elements",
  "text",
  "linkShare",
  "textPerElement",
  ...countedTags.map((t) => `tag:${t}`),
  ...countedTags.map((t) => `tagShare:${t}`),
  ...groupNames("class", classWords),
  ...groupNames("label", labels),
  "prices",
  "dates",
  "repeat",
  "repeatShare",
  ...groupNames("type", typeGroups),
  "type:none",
  ...groupNames("url", wordGroups),
  "url:depth",
  "url:root",
  "url:number",
  "url:html",
  "url:query",
  "url:year",
  ...groupNames("title", wordGroups)
]

const log = (n: number) => Math.log1p(Math.max(0, n))

const anyOf = (set: ReadonlySet<string>, list: ReadonlyArray<string>): number => (list.some((w) => set.has(w)) ? 1 : 0)

/** The feature vector of a page's signals, in the order of {@link names}. */
export const vector = (s: PageSignals.Signals): Array<number> => {
  const out: Array<number> = [1, log(s.elements), log(s.text), s.text === 0 ? 0 : s.linkText / s.text]
  out.push(s.elements === 0 ? 0 : Math.min(s.text / s.elements, 400) / 100)
  for (const t of countedTags) out.push(log(s.tags[t]))
  for (const t of countedTags) out.push(s.elements === 0 ? 0 : Math.min(1, (s.tags[t] * 20) / s.elements))
  for (const g of Object.keys(classWords)) out.push(log(s.words[g]))
  for (const g of Object.keys(labels)) out.push(log(s.labels[g]))
  out.push(log(s.prices), log(s.dates), log(s.repeat), s.text === 0 ? 0 : Math.min(1, s.repeatText / s.text))
  for (const list of Object.values(typeGroups)) out.push(anyOf(s.types, list))
  out.push(s.types.size === 0 ? 1 : 0)
  for (const list of Object.values(wordGroups)) out.push(anyOf(s.urlWords, list))
  const query = [...s.urlWords].some((w) => w.startsWith("?")) ? 1 : 0
  const year = [...s.urlWords].some((w) => /^(?:19|20)\d\d$/.test(w)) ? 1 : 0
  out.push(Math.min(s.urlDepth, 8) / 4, s.urlDepth === 0 ? 1 : 0, s.urlWords.has("#number") ? 1 : 0)
  out.push(s.urlWords.has("#html") ? 1 : 0, query, year)
  for (const list of Object.values(wordGroups)) out.push(anyOf(s.titleWords, list))
  return out
}

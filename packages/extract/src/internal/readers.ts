/**
 * The reader of each page type that has one (see `typedPage.ts`): the one table the dispatcher in
 * `MainContent.fromHtml` consults. A type without a reader (article, other) is read by the article path.
 */
import type * as PageType from "../PageType.js"
import * as CollectionPage from "./collectionPage.js"
import * as ProductPage from "./productPage.js"
import * as ServicePage from "./servicePage.js"
import type * as TypedPage from "./typedPage.js"

/** Readers by page type. */
export const readers: Partial<Record<PageType.PageType, TypedPage.Reader>> = {
  product: ProductPage.read,
  collection: CollectionPage.read,
  listing: CollectionPage.read,
  service: ServicePage.read
}

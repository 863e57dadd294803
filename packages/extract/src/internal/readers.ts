/**
 * The reader of each page type that has one (see `typedPage.ts`): the one table the dispatcher in
 * `MainContent.fromHtml` consults. A type without a reader (article, other) is read by the article path, prepared
 * first by its type's preparer when it has one.
 */
import type * as PageType from "../PageType.js"
import * as CollectionPage from "./collectionPage.js"
import * as DocumentationPage from "./documentationPage.js"
import * as ForumPage from "./forumPage.js"
import * as ProductPage from "./productPage.js"
import * as ServicePage from "./servicePage.js"
import type * as TypedPage from "./typedPage.js"

/** Readers by page type. */
export const readers: Partial<Record<PageType.PageType, TypedPage.Reader>> = {
  forum: ForumPage.read,
  product: ProductPage.read,
  collection: CollectionPage.read,
  listing: CollectionPage.read,
  service: ServicePage.read
}

/** Preparers by page type: what the article path needs done to a page of that type before it reads it. */
export const preparers: Partial<Record<PageType.PageType, TypedPage.Preparer>> = {
  documentation: DocumentationPage.prepare
}

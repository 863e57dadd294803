import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Extract from "../src/Extract.js"
import * as EmbeddedState from "../src/internal/embeddedState.js"
import * as MainContent from "../src/MainContent.js"

const prose = (i: number) =>
  `Paragraph ${i} of the story explains, in plain and careful words, how the harbour cranes were moved at night.`

const shell = (head: string, body: string) =>
  `<html><head><title>Harbour</title>${head}</head><body><div id="app">${body}</div></body></html>`

const read = (html: string) => MainContent.fromHtml(html, { url: "https://example.com/harbour" })

describe("the embedded state of JavaScript shells", () => {
  it("reads a Next.js page's __NEXT_DATA__, its HTML strings as markdown", () => {
    const data = {
      props: {
        pageProps: {
          post: {
            title: "How the harbour moved",
            slug: "harbour-moved",
            body: `<h2>Night work</h2><p>${prose(0)}</p>`
          },
          related: [{ excerpt: prose(1), href: "/next" }]
        }
      },
      page: "/[slug]",
      buildId: "a1b2c3"
    }
    const result = read(
      shell(`<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(data)}</script>`, "")
    )
    expect(result.method).toBe("state")
    expect(result.markdown).toContain("## How the harbour moved")
    expect(result.markdown).toContain("## Night work")
    expect(result.markdown).toContain("Paragraph 0 of the story")
    expect(result.markdown).toContain("Paragraph 1 of the story")
    for (const gone of ["harbour-moved", "a1b2c3", "/[slug]"]) expect(result.markdown).not.toContain(gone)
  })

  it("reads a Nuxt page's window.__NUXT__ and __NUXT_DATA__, and a store's window.__INITIAL_STATE__", () => {
    const nuxt = read(
      shell(`<script>window.__NUXT__={"data":[{"article":{"content":${JSON.stringify(prose(2))}}}]};</script>`, "")
    )
    expect(nuxt.markdown).toContain("Paragraph 2 of the story")
    const nuxt3 = read(
      shell(
        `<script type="application/json" id="__NUXT_DATA__">[{"state":1},{"text":2},${JSON.stringify(prose(3))}]</script>`,
        ""
      )
    )
    expect(nuxt3.markdown).toContain("Paragraph 3 of the story")
    const store = read(
      shell(
        `<script>window.__INITIAL_STATE__ = {"entities":{"story":{"lead":${JSON.stringify(prose(4))},"className":"flex flex-col items-center gap-4 md:flex-row lg:gap-8 xl:px-2"}}};</script>`,
        ""
      )
    )
    expect(store.markdown).toContain("Paragraph 4 of the story")
    expect(store.markdown).not.toContain("flex-col")
  })

  it("reads the React server component payload of a Next.js app", () => {
    const rows =
      `0:["$","main",null,{"children":[["$","h1",null,{"children":"How the harbour moved"}],` +
      `["$","p",null,{"className":"text-lg leading-7 text-gray-700 dark:text-gray-300","children":${JSON.stringify(prose(5))}}]]}]\n` +
      `1:T40,${prose(6).slice(0, 64)}`
    const chunks = [rows.slice(0, 60), rows.slice(60)]
      .map((chunk) => `<script>self.__next_f.push([1,${JSON.stringify(chunk)}])</script>`)
      .join("")
    const result = read(shell(`<script>(self.__next_f=self.__next_f||[]).push([0])</script>`, "") + chunks)
    expect(result.markdown).toContain("Paragraph 5 of the story")
    expect(result.markdown).toContain(prose(6).slice(0, 64))
    expect(result.markdown).not.toContain("text-lg")
  })

  it("leaves out interface strings kept per locale or in message dictionaries", () => {
    const state = {
      props: {
        pageProps: {
          product: { description: prose(9) },
          geo: {
            "en-AU": { body: "You are free to explore, but please know that we only deliver to Australia from here." }
          },
          i18n: { banner: "Sign up for our newsletter and get ten percent off your first order, today only." }
        }
      }
    }
    const result = read(
      shell(`<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(state)}</script>`, "")
    )
    expect(result.markdown).toContain("Paragraph 9 of the story")
    expect(result.markdown).not.toContain("free to explore")
    expect(result.markdown).not.toContain("newsletter")
  })

  it("reads a page whose only content is JSON-LD", () => {
    const ld = { "@context": "https://schema.org", "@type": "NewsArticle", headline: "Harbour", articleBody: prose(7) }
    const result = read(shell(`<script type="application/ld+json">${JSON.stringify(ld)}</script>`, ""))
    expect(result.markdown).toContain("Paragraph 7 of the story")
  })

  it("leaves a page that shows its text to its HTML, and a shell whose state holds no text empty", () => {
    const shown = read(
      shell(
        `<script id="__NEXT_DATA__" type="application/json">{"props":{"note":${JSON.stringify(prose(8))}}}</script>`,
        `<article>${[0, 1, 2, 3].map((i) => `<p>${prose(i + 10)}</p>`).join("")}</article>`
      )
    )
    expect(shown.method).not.toBe("state")
    expect(shown.markdown).not.toContain("Paragraph 8")
    const empty = Extract.extractSync({
      body: new TextEncoder().encode(
        shell(`<script id="__NEXT_DATA__" type="application/json">{"props":{"id":"x1","flags":[1,2]}}</script>`, "")
      ),
      contentType: "text/html",
      url: "https://example.com/app"
    })
    expect(Either.isLeft(empty) && empty.left.reason).toBe("empty_content")
  })

  it("tells sentences from class lists, paths and identifiers", () => {
    expect(EmbeddedState.isProse(prose(1))).toBe(true)
    expect(EmbeddedState.isProse("Short words only, and not enough of them.")).toBe(true)
    expect(EmbeddedState.isProse("flex flex-col items-center justify-between gap-4 md:flex-row lg:gap-8")).toBe(false)
    expect(EmbeddedState.isProse("https://example.com/a/very/long/path/that/goes/on/and/on?with=a&query=string")).toBe(
      false
    )
    expect(EmbeddedState.isProse("function (a, b) { return a + b } // a comment that is long enough")).toBe(false)
  })

  const utility = FastCheck.tuple(
    FastCheck.constantFrom("", "md:", "lg:", "hover:", "dark:"),
    FastCheck.constantFrom("flex", "text", "px", "mt", "bg", "grid", "items", "gap"),
    FastCheck.constantFrom("-2", "-col", "-center", "-gray-700", "-lg", "-4")
  ).map(([prefix, name, suffix]) => prefix + name + suffix)

  it.prop(
    "a list of utility classes is never prose",
    [FastCheck.array(utility, { minLength: 6, maxLength: 40 })],
    ([classes]) => {
      expect(EmbeddedState.isProse(classes.join(" "))).toBe(false)
    }
  )
})

describe("pages a script would show", () => {
  const page = (wrapper: string) =>
    `<html><body>${wrapper.replace("%", `<article><h1>Harbour</h1>${[0, 1, 2, 3, 4].map((i) => `<p>${prose(i)}</p>`).join("")}</article>`)}` +
    `<div hidden><p>A hidden dialog that says something nobody reads on this page at all.</p></div></body></html>`

  it("unhides a page hidden as a whole until its scripts run, and nothing else", () => {
    for (const wrapper of [
      '<div style="visibility:hidden;min-height:100vh">%</div>',
      '<div class="root hide">%</div>',
      "<main hidden>%</main>"
    ]) {
      const result = read(page(wrapper))
      expect(result.markdown, wrapper).toContain("Paragraph 4 of the story")
      expect(result.markdown, wrapper).not.toContain("hidden dialog")
    }
  })

  it("leaves hidden a blob that holds much text but little of the page's markup", () => {
    const blob = JSON.stringify({ settings: Array.from({ length: 60 }, (_, i) => ({ key: `option-${i}`, on: true })) })
    const result = read(
      `<html><body><article><h1>Harbour</h1>${[0, 1].map((i) => `<p>${prose(i)}</p>`).join("")}</article>` +
        `<div hidden>${blob}</div></body></html>`
    )
    expect(result.markdown).toContain("Paragraph 1 of the story")
    expect(result.markdown).not.toContain("option-1")
  })

  it("moves React's streamed content into its placeholder", () => {
    const html =
      `<html><body><h1>Harbour</h1><template id="B:0"></template><div class="skeleton">Loading…</div>` +
      `<footer>Footer</footer><div hidden id="S:0"><article>${[0, 1, 2].map((i) => `<p>${prose(i)}</p>`).join("")}` +
      `</article></div></body></html>`
    const result = read(html)
    expect(result.markdown).toContain("Paragraph 2 of the story")
    expect(result.markdown.indexOf("Paragraph 0")).toBeGreaterThanOrEqual(0)
  })
})

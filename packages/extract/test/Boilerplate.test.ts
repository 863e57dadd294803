import { describe, expect, it } from "@effect/vitest"
import * as MainContent from "../src/MainContent.js"
import { prose } from "./support/pages.js"

// Small hand-written pages: an article of prose Readability picks, with one pattern of boilerplate inside it.

const page = (article: string, head = "<title>Dock Work At Night</title>") =>
  `<html><head>${head}</head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav>` +
  `<article class="story">${article}</article><footer>Site footer</footer></body></html>`

const extract = (html: string, options?: MainContent.Options) =>
  MainContent.fromHtml(html, { url: "https://news.example/2026/dock-work", ...options })

describe("Boilerplate inside the article", () => {
  it("works around Readability dropping the whole page when <html> or <body> looks unlikely", () => {
    // Readability removes an "unlikely" <html> with everything in it, scores nothing, and keeps the whole body as
    // the article: the navigation with it.
    const plain = extract(page(prose(6)))
    expect(plain.markdown).not.toContain("Home")
    const result = extract(page(prose(6)).replace("<html>", '<html class="header-spacing">'))
    expect(result.method).toBe("article")
    expect(result.markdown).toContain("Paragraph 5")
    expect(result.markdown).not.toContain("Home")
    const hidden = extract(page(prose(6)).replace("<body>", '<body style="display:none">'))
    expect(hidden.markdown).toContain("Paragraph 5")
    expect(hidden.markdown).not.toContain("Home")
  })
})

describe("Boilerplate rules", () => {
  it("drops elements hidden by utility classes or attributes, and hover cards, keeping responsive classes", () => {
    const result = extract(
      page(
        prose(3) +
          '<p>Visible line <span class="sr-only">Screen reader aside</span> goes on.</p>' +
          '<div class="d-none">Hidden by d-none</div><div class="dn">Hidden by dn</div>' +
          '<p>The <a href="/p/crane">crane</a><span class="personRollover">Hover card bio text</span> lifts.</p>' +
          '<div class="tooltipContent">Tooltip words</div><div class="hidden-xs">Shown on big screens</div>' +
          prose(3, 3)
      )
    )
    expect(result.markdown).toContain("Visible line goes on.")
    expect(result.markdown).toContain("Shown on big screens")
    for (const gone of ["Screen reader aside", "Hidden by d-none", "Hidden by dn", "Hover card", "Tooltip words"])
      expect(result.markdown).not.toContain(gone)
  })
})

describe("The whole-page pass", () => {
  it("drops hidden text, captions and trailing boilerplate from a short page too", () => {
    // Too little prose for Readability's article to stand: the whole page is rendered, and the whole-page rules
    // apply to it as they do before Readability.
    const result = extract(
      `<html><head><title>Short note</title></head><body><main><p>The night shift starts at ten.</p>` +
        '<span class="sr-only">Skip to the comments</span>' +
        "<figure><img src=/c.jpg alt=Crane><figcaption>A crane at dusk (Photo: J. Doe)</figcaption></figure>" +
        '<div class="sharedaddy sd-sharing"><h3>Share this:</h3><a href="/s/x">X</a> <a href="/s/f">Facebook</a></div>' +
        "<p>© 2026 The Port Paper</p></main></body></html>"
    )
    expect(result.method).toBe("page")
    expect(result.markdown).toContain("The night shift starts at ten.")
    for (const gone of ["Skip to the comments", "A crane at dusk", "Share this", "Facebook", "©"])
      expect(result.markdown).not.toContain(gone)
    const kept = extract(
      `<html><body><main><p>The night shift starts at ten.</p>` +
        "<figure><img src=/c.jpg alt=Crane><figcaption>A crane at dusk</figcaption></figure></main></body></html>",
      { keepCaptions: true }
    )
    expect(kept.markdown).toContain("A crane at dusk")
  })
})

describe("Captions and credits", () => {
  const article =
    prose(3) +
    '<figure><img src="/a.jpg" alt="Crane"><figcaption>A crane at dusk. Photo: J. Doe</figcaption></figure>' +
    '<div class="imageCredit">Credit words</div><div class="slide-count">Image 2 of 5</div>' +
    '<div class="photoGallery"><p>Gallery caption one</p></div>' +
    prose(3, 3)

  it("drops figcaptions, caption and credit class words (camelCase too) and slide counters, not galleries", () => {
    const result = extract(page(article))
    expect(result.markdown).toContain("Paragraph 5")
    // A gallery is kept: on a slideshow page the slides are the article.
    expect(result.markdown).toContain("Gallery caption one")
    for (const gone of ["A crane at dusk", "Credit words", "Image 2 of 5"]) expect(result.markdown).not.toContain(gone)
  })

  it("keeps a heading whose class names a caption type size", () => {
    const standfirst = "Cranes work through the night as the port moves more freight than ever, and the crews say so"
    const result = extract(page(`<h2 class="teaser caption-s5">${standfirst}</h2>` + prose(6)))
    expect(result.markdown).toContain(standfirst)
  })

  it("drops picture legends and image descriptions by their class words", () => {
    const result = extract(
      page(
        prose(3) +
          '<div class="legend"><div class="content">The stag beetle on an old oak, seen from below.</div></div>' +
          '<p class="imagedescription">AFP / Jane Doe</p>' +
          prose(3, 3)
      )
    )
    expect(result.markdown).toContain("Paragraph 5")
    for (const gone of ["stag beetle", "Jane Doe"]) expect(result.markdown).not.toContain(gone)
  })

  it("keeps them when asked", () => {
    const result = extract(page(article), { keepCaptions: true })
    for (const kept of ["A crane at dusk", "Credit words", "Image 2 of 5", "Gallery caption one"])
      expect(result.markdown).toContain(kept)
  })
})

describe("Links inside the body", () => {
  it("drops teaser lines, all-caps link lines, link-only lists after the text and related-story blocks", () => {
    const result = extract(
      page(
        prose(2) +
          '<p>See the <a href="https://port.example/report">port report</a> for the figures of the year.</p>' +
          '<p>READ MORE: <a href="/2026/other-story">Harbour strike ends after two weeks</a></p>' +
          '<p><a href="/2026/video">WATCH THE CRANES AT WORK</a></p>' +
          prose(4, 2) +
          '<ul><li><a href="/a">First other story</a></li><li><a href="/b">Second other story</a></li></ul>' +
          '<div class="relatedStories"><a href="/c">Related card title</a> <span>2 min</span></div>'
      )
    )
    expect(result.markdown).toContain("Paragraph 5")
    expect(result.markdown).toContain("[port report](https://port.example/report)")
    for (const gone of ["Harbour strike ends", "WATCH THE CRANES", "First other story", "Related card title"])
      expect(result.markdown).not.toContain(gone)
  })

  it("drops navigation left inside the article (a nav of links), not a nav that is mostly text", () => {
    const result = extract(
      page(
        prose(3) +
          '<nav class="tabs"><ul><li><a href="/guide">Guide</a></li><li><a href="/firms">Firms</a></li></ul></nav>' +
          "<nav><p>This part of the story follows the night crew from the gate to the quay.</p></nav>" +
          prose(3, 3)
      )
    )
    expect(result.markdown).toContain("Paragraph 5")
    expect(result.markdown).not.toContain("Firms")
    expect(result.markdown).toContain("follows the night crew")
  })

  it("keeps a list of links at the top of the text (a table of contents, sources)", () => {
    const result = extract(
      page('<ul><li><a href="/a">Source one</a></li><li><a href="/b">Source two</a></li></ul>' + prose(6))
    )
    expect(result.markdown).toContain("Source one")
  })
})

describe("Pagers set as tables", () => {
  it("drops a 'Prev | Up | Home | Next' table above and below the text, keeping a table that only has such a link", () => {
    const pager = (titles: string) =>
      '<table summary="Navigation"><tr><td><a href="ch10.html">Prev</a></td><td><a href="part2.html">Up</a></td>' +
      `<td><a href="index.html">Home</a></td><td><a href="ch12.html">Next »</a></td></tr>${titles}</table>`
    const kept =
      '<table><tr><th>Key</th><th>Moves to</th></tr><tr><td><a href="/keys/up">Up</a></td><td>the previous line</td></tr>' +
      '<tr><td><a href="/keys/home">Home</a></td><td>the start of the line</td></tr><tr><td>PgDn</td><td>the next page</td></tr></table>'
    const md = extract(
      page(
        pager("") +
          prose(2) +
          kept +
          prose(2, 2) +
          pager("<tr><td>10.6. Output columns</td><td></td><td>11.1. Introduction</td></tr>")
      )
    ).markdown
    expect(md).toContain("Paragraph 3")
    expect(md).not.toMatch(/\[Prev\]|\[Next/)
    expect(md).toContain("the start of the line")
    expect(md).toContain("[Home](https://news.example/keys/home)")
  })
})

describe("Boilerplate sections after the article", () => {
  it("drops a labelled section ('Mehr zum Thema', 'Related articles') with its link list, in the second half", () => {
    const result = extract(
      page(
        prose(6) +
          '<h3>Mehr zum Thema</h3><ul><li><a href="/x">Other piece one</a></li><li><a href="/y">Other two</a></li></ul>' +
          "<h2>Related articles</h2><p><a href='/z'>A related headline</a></p>"
      )
    )
    expect(result.markdown).toContain("Paragraph 5")
    for (const gone of ["Mehr zum Thema", "Other piece one", "Related articles", "A related headline"])
      expect(result.markdown).not.toContain(gone)
  })

  it("knows further labels: 'Weiterführende Links', 'Zum Weiterlesen', 'Keine Kommentare', 'Neueste Artikel'", () => {
    for (const label of [
      "Weiterführende Links",
      "Zum Weiterlesen:",
      "Keine Kommentare",
      "Neueste Artikel",
      "Mehr Themen"
    ]) {
      const result = extract(page(prose(6) + `<h3>${label}</h3><p><a href="/x">A further headline</a></p>`))
      expect(result.markdown).toContain("Paragraph 5")
      expect(result.markdown).not.toContain(label.replace(":", ""))
      expect(result.markdown).not.toContain("A further headline")
    }
  })

  it("keeps a heading of the same words in the first half, where it is the article's own", () => {
    const result = extract(page("<h2>Newsletter</h2>" + prose(6)))
    expect(result.markdown).toContain("Newsletter")
  })
})

describe("Boilerplate blocks around the article", () => {
  it("drops author bios, sign-ups, about boxes, share and tag rows, copyright and citation lines", () => {
    const result = extract(
      page(
        prose(6) +
          '<div class="author-bio"><p>Jane Doe writes about ports for the paper since 2001.</p></div>' +
          '<div class="newsletterSignup"><p>Get the morning briefing in your inbox.</p></div>' +
          '<div class="about-box"><p>The Port Paper is an independent newsroom.</p></div>' +
          '<div class="share-row"><a href="/s/x">X</a> <a href="/s/f">Facebook</a> <span>Share this</span></div>' +
          '<div class="tags"><a href="/t/ports">Ports</a> <a href="/t/night">Night</a></div>' +
          "<p>© 2026 The Port Paper. All rights reserved.</p><p>Cite this article: Doe, J. (2026).</p>"
      )
    )
    expect(result.markdown).toContain("Paragraph 5")
    for (const gone of [
      "Jane Doe writes",
      "morning briefing",
      "independent newsroom",
      "Facebook",
      "Ports",
      "©",
      "Cite"
    ])
      expect(result.markdown).not.toContain(gone)
  })

  it("keeps the article in a wrapper named for its author or share buttons (long comments still go)", () => {
    // The wrapper holds well under a quarter of the page's text (a long menu holds the rest), as on a big site.
    const menu = Array.from({ length: 150 }, (_, i) => `<li><a href="/s${i}">Section number ${i} of the paper</a></li>`)
    const comment = (i: number) =>
      `<p>Comment ${i}: I worked those night shifts myself for twenty years and the cranes were never that quiet.</p>`
    const html = page(
      '<div class="entry author-jane-doe">' +
        prose(8) +
        '</div><div class="comments">' +
        Array.from({ length: 12 }, (_, i) => comment(i)).join("") +
        "</div>"
    ).replace("</nav>", `<ul>${menu.join("")}</ul></nav>`)
    const result = extract(html)
    expect(result.markdown).toContain("Paragraph 0")
    expect(result.markdown).toContain("Paragraph 7")
    expect(result.markdown).not.toContain("Comment 3")
  })

  it("drops post-meta rows, the likes row and an author's profile box", () => {
    const result = extract(
      page(
        prose(6) +
          '<p class="postmetadata alt">This entry was posted on Monday, filed under Ports. Comments are closed.</p>' +
          '<div class="entry-utility">Posted in Harbour by Jane Doe, with the tags cranes and barges.</div>' +
          '<div class="postmeta">Der Beitrag wurde am Montag veröffentlicht und unter Hafen abgelegt.</div>' +
          '<div class="likes-text">Two bloggers like this.</div>' +
          '<div class="sect_profile-descr"><p>Has written for the paper since 2008, on ports and barges.</p></div>'
      )
    )
    expect(result.markdown).toContain("Paragraph 5")
    for (const gone of ["This entry was posted", "Posted in Harbour", "Der Beitrag wurde", "bloggers", "since 2008"])
      expect(result.markdown).not.toContain(gone)
  })

  it("keeps an embedded tweet inside a 'social' wrapper", () => {
    const result = extract(
      page(
        prose(3) +
          '<div class="social-embed"><blockquote class="twitter-tweet"><p>The cranes are lit tonight, what a sight ' +
          "over the water.</p>— Port Watcher (@portwatch)</blockquote></div>" +
          prose(3, 3)
      )
    )
    expect(result.markdown).toContain("The cranes are lit tonight")
  })
})

describe("Title, byline and dateline at the top", () => {
  it("drops the title, byline and dateline repeated at the top of the body", () => {
    const head =
      '<title>Dock Work At Night</title><meta name="author" content="Jane Doe">' +
      '<meta property="article:published_time" content="2026-11-30T08:00:00Z">'
    const result = extract(
      page(
        '<div class="kicker"><h2>Dock Work At Night</h2></div><p class="by">By Jane Doe</p>' +
          "<p>Updated 30 November 2026, 09:12 · Posted 29 November 2026</p><p>4 min read</p>" +
          prose(6),
        head
      )
    )
    expect(result.markdown).toContain("Paragraph 0")
    for (const gone of ["Dock Work At Night", "By Jane Doe", "Updated 30 November", "4 min read"])
      expect(result.markdown).not.toContain(gone)
    expect(result.metadata.byline).toBe("Jane Doe")
  })

  it("keeps a sentence that mentions a date in the text", () => {
    const result = extract(page("<p>On 30 November 2026 the harbour reopened after the strike.</p>" + prose(6)))
    expect(result.markdown).toContain("On 30 November 2026 the harbour reopened")
  })
})

describe("Prompts to the reader", () => {
  it("drops short blocks that open with a stock prompt, keeping prose that only mentions the same words", () => {
    const prompts = [
      "<p>War der Artikel nützlich?</p>",
      "<div>Möchten Sie weiterlesen?</div>",
      "<p>Ja. Ich bin Abonnent.</p>",
      "<p>To view the full story, please subscribe to the Harbour Times.</p>",
      "<p>Never miss the latest news by signing up to our newsletter.</p>",
      "<span>- Anzeige -</span>",
      "<p>Lade weitere Inhalte</p>",
      "<p>Externer Inhalt</p>",
      "<h3>Keine Kommentare</h3>",
      "<p>LEA TAMBIÉN: El puerto abre de noche</p>",
      "<p>We want to hear what you think about this article.</p>",
      "<p>Follow the Harbour Times on Twitter and Instagram.</p>"
    ]
    const keep = [
      "<p>Readers who subscribe to the harbour newsletter hear of the night shift first, the union says.</p>",
      `<p>Keine Kommentare wollte der Hafenmeister abgeben, als wir ihn fragten, ${"und die Kräne liefen weiter, ".repeat(8)}bis zum Morgen.</p>`,
      "<p>Anzeigen gegen die Reederei wurden bisher nicht erstattet.</p>"
    ]
    const result = extract(
      page(prose(3) + prompts.slice(0, 6).join("") + keep.join("") + prose(3, 3) + prompts.slice(6).join(""))
    )
    expect(result.markdown).toContain("Paragraph 5")
    for (const gone of [
      "nützlich",
      "weiterlesen",
      "Abonnent",
      "full story",
      "Never miss",
      "Anzeige -",
      "Lade",
      "Externer",
      "LEA",
      "hear what you think",
      "Follow the"
    ])
      expect(result.markdown).not.toContain(gone)
    expect(result.markdown).not.toMatch(/^### Keine Kommentare/m)
    for (const kept of ["Readers who subscribe", "Keine Kommentare wollte", "Anzeigen gegen"])
      expect(result.markdown).toContain(kept)
  })
})

describe("Captions in plain blocks", () => {
  it("drops blocks that open with a figure label or end with a photo credit, unless captions are kept", () => {
    const captions =
      "<p>Abbildung 4: Die Kräne im Hafen bei Nacht.</p><div>Foto: Hafenbetrieb</div>" +
      "<p>Der Kai im Morgennebel (Foto: Getty)</p><p>The night crew at work (REUTERS/Jane Doe)</p>"
    const source = "<p>Die Schicht endet um sechs, sagte der Hafenmeister. (dpa)</p>"
    const html = page(prose(3) + captions + source + prose(3, 3))
    const result = extract(html)
    for (const gone of ["Abbildung 4", "Hafenbetrieb", "Morgennebel", "REUTERS"])
      expect(result.markdown).not.toContain(gone)
    expect(result.markdown).toContain("sagte der Hafenmeister. (dpa)")
    const kept = extract(html, { keepCaptions: true })
    for (const caption of ["Abbildung 4", "Hafenbetrieb", "Morgennebel", "REUTERS"])
      expect(kept.markdown).toContain(caption)
  })

  it("drops source and photo-credit lines ('Quelle:', 'Source:', 'Crédits photos :'), not a sentence naming one", () => {
    const lines = "<p>Quelle: Landesregierung</p><p>Source: Port Authority (2026)</p><p>Crédits photos : Jane Doe</p>"
    const sentence = "<p>Die Quelle: ein Hafenmeister, der seit zwanzig Jahren die Nachtschicht leitet.</p>"
    const result = extract(page(prose(3) + lines + sentence + prose(3, 3)))
    for (const gone of ["Landesregierung", "Port Authority", "Crédits"]) expect(result.markdown).not.toContain(gone)
    expect(result.markdown).toContain("Die Quelle: ein Hafenmeister")
  })
})

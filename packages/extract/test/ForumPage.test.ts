import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "effect/FastCheck"
import * as ForumPage from "../src/internal/forumPage.js"
import * as HtmlDocument from "../src/internal/htmlDocument.js"
import * as PostStructure from "../src/internal/postStructure.js"
import * as MainContent from "../src/MainContent.js"

const context = { pageType: "forum" as const, baseUrl: "https://forum.example/t/1", title: undefined, structured: [] }
const read = (html: string) => ForumPage.read(HtmlDocument.parse(MainContent.stripInert(html)), context)
const body = (who: string, n: number) =>
  `${who} writes post ${n}: the resolver picks the newest version that every crate in the tree accepts, ` +
  `so a bump in one place can move the whole build.`

const page = (title: string, thread: string) =>
  `<html><head><title>${title}</title></head><body><header><nav><a href="/">Forum</a> <a href="/latest">Latest</a>` +
  `</nav></header><main><h1>${title}</h1>${thread}</main><aside class="sidebar"><h3>Similar topics</h3><ul>` +
  `<li><a href="/t/2">Another topic</a></li><li><a href="/t/3">Yet another</a></li></ul></aside>` +
  `<footer>© Example Forum</footer></body></html>`

// A phpBB-like board: a profile column (name, join date, post count), the post's header line ("by … » date"), its
// text, a signature, and a row of buttons.
const board = page(
  "Turning off the LEDs",
  ["ada", "grace", "alan"]
    .map(
      (who, i) =>
        `<div id="p10${i}" class="post has-profile bg${(i % 2) + 1}"><div class="inner">` +
        `<dl class="postprofile"><dt><a href="./memberlist.php?mode=viewprofile&u=${i}" class="username">${who}</a></dt>` +
        `<dd class="profile-posts"><strong>Posts:</strong> 12</dd><dd class="profile-joined"><strong>Joined:</strong> ` +
        `Mon Jan 02, 2017 10:00 am</dd></dl><div class="postbody"><ul class="post-buttons"><li><a href="./posting.php?` +
        `mode=quote&p=10${i}">Quote</a></li></ul><p class="author">by <a href="./memberlist.php?u=${i}">${who}</a> » ` +
        `Sun Dec 1${i}, 2023 11:23 am</p><div class="content">${body(who, i)}</div>` +
        `<div class="signature">Sent from my toaster. Visit my blog for more toast.</div></div></div></div><hr class="divider">`
    )
    .join("")
)

// A Q&A page: the question and its answers share the post layout (a vote cell beside the text), with the author's
// card under the text.
const qa = page(
  "Why is except: pass bad?",
  `<div class="question"><div class="post-layout"><div class="votecell"><button>Up vote</button><span class="vote-count">` +
    `42</span><button>Down vote</button></div><div class="postcell"><div class="s-prose">${body("asker", 0)}</div>` +
    `<div class="user-info">asked <time datetime="2014-02-04">Feb 4, 2014</time> <a href="/users/1/asker">asker</a>` +
    ` <span class="reputation">1,234</span></div></div></div></div><div id="answers"><h2>2 Answers</h2>` +
    ["ada", "grace"]
      .map(
        (who, i) =>
          `<div class="answer"><div class="post-layout"><div class="votecell"><span class="vote-count">${7 - i}</span>` +
          `</div><div class="postcell"><div class="s-prose">${body(who, i + 1)}</div><div class="user-info">answered ` +
          `<time datetime="2014-02-0${5 + i}">Feb ${5 + i}, 2014</time> <a href="/users/${i + 2}/${who}">${who}</a>` +
          `</div><div class="post-menu"><a href="/share">Share</a> <a href="/edit">Improve this answer</a></div>` +
          `</div></div></div>`
      )
      .join("") +
    `</div><div class="login-box">Log in to reply</div>`
)

// A comment tree: replies nested inside the comment they answer.
const comment = (who: string, n: number, replies: string) =>
  `<div class="comment"><div class="entry"><p class="tagline"><a href="/user/${who}" class="author">${who}</a> ` +
  `<span class="score">${n} points</span> <time datetime="2024-03-0${n}">${n} hours ago</time></p>` +
  `<div class="md"><p>${body(who, n)}</p></div><ul class="buttons"><li><a href="/reply">reply</a></li>` +
  `<li><a href="/share">share</a></li></ul></div><div class="child">${replies}</div></div>`
const tree = page(
  "Hair follicles grown in the lab",
  `<div class="commentarea">${comment("ada", 1, comment("grace", 2, comment("alan", 3, "")))}${comment("edsger", 4, "")}</div>`
)

// Old Reddit's comments: each text (short, so the body read is the entry around its form) in an edit-in-place form,
// beside script links that fold the reply.
const formed = page(
  "Hair follicles grown in the lab",
  ["ada", "grace", "alan"]
    .map(
      (who, i) =>
        `<div class="thing comment"><div class="entry"><p class="tagline"><a href="javascript:void(0)" class="expand">` +
        `[–]</a><a href="/user/${who}" class="author">${who}</a> <time datetime="2024-03-0${i + 1}">${i + 1} hours ago` +
        `</time> <a href="javascript:void(0)" class="numchildren">(${i} children)</a></p><form action="#" class="usertext">` +
        `<input type="hidden" name="thing_id" value="t1_${i}"><div class="usertext-body"><div class="md"><p>${who} ` +
        `pins post ${i}.</p></div></div></form></div></div>`
    )
    .join("")
)

// A FluxBB-like board: rows alternate "rowodd" and "roweven"; the name is a bare <strong> beside the member's title;
// the card shows when the member registered; a reply quotes the post above inside a box with its attribution; an
// edit note closes a post. The last post's header shows no date: its card's and its edit's are not its time.
const fluxText = [
  body("ada", 0),
  `<div class="quotebox"><cite>ada wrote:</cite><blockquote><div><p>${body("ada", 0)}</p></div></blockquote></div>` +
    `<p>${body("grace", 1)}</p><p class="postedit"><em>Last edited by grace (2024-08-04 09:30:00)</em></p>`,
  `${body("alan", 2)}</p><p class="postedit"><em>Last edited by alan (2024-08-05 10:00:00)</em>`
]
const flux = page(
  "Old school boards",
  ["ada", "grace", "alan"]
    .map(
      (who, i) =>
        `<div id="p${i}" class="blockpost ${i % 2 === 0 ? "rowodd" : "roweven"}"><h2><span><span class="conr">#${i + 1}` +
        `</span> <a href="viewtopic.php?pid=${i}#p${i}">${i < 2 ? `2024-08-0${i + 1} 16:12:45` : "Permalink"}</a>` +
        `</span></h2><div class="box"><div class="inbox"><div class="postbody"><div class="postleft"><dl><dt><strong>${who}</strong></dt>` +
        `<dd class="usertitle"><strong>Member</strong></dd><dd><span>Registered: 2011-11-2${i}</span></dd></dl></div>` +
        `<div class="postright"><h3>Re: Old school boards</h3><div class="postmsg"><p>${fluxText[i]}</p></div></div>` +
        `</div></div></div></div>`
    )
    .join("")
)

// A Q&A page whose answers are short, so their cards hold a third of each: the question's cell is shaped otherwise
// than the answers' ("postcell", "answercell"), and only the block holding the text is shaped alike.
const shortAnswers = page(
  "Focus the file pane",
  `<div class="question"><div class="postcell"><div class="s-prose">${body("asker", 0)}</div><div class="user-info">` +
    `asked <time datetime="2012-06-29">Jun 29, 2012</time> <a href="/users/1/asker">asker</a></div></div></div>` +
    ["ada", "grace", "alan"]
      .map(
        (who, i) =>
          `<div class="answer"><div class="answercell"><div class="s-prose"><p>${who} presses Ctrl+E, then Escape, ` +
          `and the file pane has the focus without a mouse.</p></div><div class="user-info">answered <time datetime="2012-07-0${i + 1}">` +
          `Jul ${i + 1}, 2012</time> <a href="/users/${i + 2}/${who}">${who}</a></div></div></div>`
      )
      .join("")
)

// A news site's comments: a share link first (its query names the page as `u=`), the author's page under a tilde,
// a row of icons to reply with a quote, and a menu of the comments' shape.
const shared = page(
  "Converting the kernel",
  ["ada", "grace", "alan"]
    .map(
      (who, i) =>
        `<div class="comment-item"><div class="title"><a href="https://www.facebook.com/sharer/sharer.php?u=` +
        `https%3A%2F%2Fnews.example%2Fc%2F${i}">facebook</a> by <a href="https://news.example/~${who}">${who}</a> ` +
        `on Friday January 1${i}, 2024</div><ul class="profile-icons"><li><a href="/posting?mode=quote&p=${i}">` +
        `Reply with quote</a></li></ul><div class="text"><p>${body(who, i)}</p></div></div>` +
        `<div class="comment-item"><span class="menu-label">Post Options</span></div>`
    )
    .join("")
)

// An Invision-like card: the author's pane links the avatar first, then the name, and its header reads "Posted"
// and the date right after the name.
const paned = page(
  "Travel agents",
  ["ada", "grace", "alan"]
    .map(
      (who, i) =>
        `<article class="cPost"><div class="cAuthorPane_content"><a href="/profile/${i}-${who}/"><img src="/a.png" ` +
        `alt=""></a><h3 class="cAuthorPane_name"><a href="/profile/${i}-${who}/">${who}</a></h3><div>Posted ` +
        `<time datetime="2024-04-1${i}T10:00:00Z">April 1${i}, 2024</time></div></div><div class="cPost_content">` +
        `<p>${body(who, i)}</p></div></article>`
    )
    .join("")
)

// An issue tracker's timeline.
const issue = page(
  "Resolver ignores MSRV",
  ["ada", "grace", "alan"]
    .map(
      (who, i) =>
        `<div class="timeline-comment"><div class="timeline-comment-header"><a class="author" href="/${who}">${who}</a>` +
        ` commented <relative-time datetime="2024-05-0${i + 1}T10:00:00Z">May ${i + 1}, 2024</relative-time>` +
        `<div class="timeline-comment-actions"><button>…</button></div></div><div class="comment-body markdown-body">` +
        `<p>${body(who, i)}</p><pre><code class="language-toml">rust-version = "1.8${i}"</code></pre></div>` +
        `<div class="comment-reactions"><button>👍 3</button></div></div>`
    )
    .join("")
)

// A thread marked by role attributes, in utility classes, with times a script fills in from their title.
const roles = page(
  "Which version for Ubuntu?",
  `<ul class="posts d-flex flex-column gap-3">${["ada", "grace", "alan"]
    .map(
      (who, i) =>
        `<li component="post" class="pt-4 ${i === 0 ? "topic-owner-post" : ""}" data-timestamp="171335${i}">` +
        `<div class="d-flex gap-2"><a href="/user/${who}" class="fw-bold">${who}</a> wrote ` +
        `<span class="timeago text-muted" title="2024-04-1${i}T11:38:44.717Z"></span></div>` +
        `<div class="content text-break" component="post/content"><p>${body(who, i)}</p></div></li>`
    )
    .join("")}</ul>`
)

// A board whose replies quote: grace quotes ada's post whole, alan quotes a manual that no post above holds.
const quoting = page(
  "Quoting replies",
  [
    ["ada", ""],
    [
      "grace",
      `<blockquote class="bbCodeBlock bbCodeBlock--quote"><div class="bbCodeBlock-title">ada said:</div>` +
        `${body("ada", 0)}<div class="bbCodeBlock-expandLink">Click to expand...</div></blockquote>`
    ],
    [
      "alan",
      `<blockquote>The manual says: run the resolver twice when the lock file names a yanked version.</blockquote>`
    ]
  ]
    .map(
      ([who, quote], i) =>
        `<article class="message"><a class="username" href="/members/${who}.${i}/">${who}</a><time>Mar ${i + 1}, 2024</time>` +
        `<div class="message-body">${quote}<p>${body(who, i)}</p></div></article>`
    )
    .join("")
)

describe("the forum reader", () => {
  it("finds posts by a role attribute whatever their utility classes, with a time from a title a script reads", () => {
    const md = read(roles)!
    for (const [i, who] of ["ada", "grace", "alan"].entries()) {
      // The machine's stamp is read as its date: its seconds and zone are noise to a reader.
      expect(md).toContain(`**${who}** · 2024-04-1${i}\n`)
      expect(md).toContain(`${who} writes post ${i}`)
    }
  })

  it("reads a board: every post with its author and time, without profiles, buttons and signatures", () => {
    const md = read(board)!
    for (const [i, who] of ["ada", "grace", "alan"].entries()) {
      expect(md).toContain(`**${who}** · Sun Dec 1${i}, 2023 11:23 am`)
      expect(md).toContain(`${who} writes post ${i}`)
    }
    expect(md.indexOf("ada writes")).toBeLessThan(md.indexOf("grace writes"))
    for (const gone of ["Joined", "Posts:", "Quote", "toaster", "Similar topics", "Latest", "Example Forum"]) {
      expect(md).not.toContain(gone)
    }
  })

  it("leaves out a quotation of a post above it, and keeps one of text the thread does not show", () => {
    const md = read(quoting)!
    expect(md.split("ada writes post 0")).toHaveLength(2)
    for (const gone of ["ada said", "Click to expand"]) expect(md).not.toContain(gone)
    expect(md).toContain("The manual says: run the resolver twice")
    for (const who of ["grace", "alan"]) expect(md).toContain(`${who} writes post`)
  })

  it("reads a Q&A page: the question, then each answer, without votes, share rows or the log-in box", () => {
    const md = read(qa)!
    expect(md).toContain("asker writes post 0")
    expect(md).toContain("**asker** · Feb 4, 2014")
    expect(md).toContain("**ada** · Feb 5, 2014")
    expect(md).toContain("grace writes post 2")
    expect(md.indexOf("asker writes")).toBeLessThan(md.indexOf("ada writes"))
    for (const gone of ["Up vote", "42", "Share", "Improve this answer", "Log in to reply", "1,234"]) {
      expect(md).not.toContain(gone)
    }
  })

  it("reads a comment tree in page order, each reply once, without scores and reply buttons", () => {
    const md = read(tree)!
    const order = ["ada", "grace", "alan", "edsger"].map((who) => md.indexOf(`writes post`, md.indexOf(`**${who}**`)))
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]))).toBe(true)
    for (const who of ["ada", "grace", "alan", "edsger"]) {
      expect(md.split(`${who} writes post`)).toHaveLength(2)
    }
    expect(md).toContain("**ada** · 1 hours ago")
    for (const gone of ["points", "reply", "share"]) expect(md).not.toContain(gone)
  })

  it("reads a post's text inside its own form, without the script links beside it", () => {
    const md = read(formed)!
    for (const [i, who] of ["ada", "grace", "alan"].entries()) {
      expect(md).toContain(`${who} pins post ${i}.`)
      expect(md).not.toContain(`(${i} children)`)
    }
    expect(md).not.toContain("[–]")
  })

  it("reads a board of alternating rows, with each post's time and not the member's or the edit's", () => {
    const md = read(flux)!
    for (const [i, who] of ["ada", "grace", "alan"].entries()) expect(md).toContain(`${who} writes post ${i}`)
    for (const i of [0, 1]) expect(md).toContain(`2024-08-0${i + 1} 16:12:45`)
    expect(md.split("ada writes post 0")).toHaveLength(2)
    for (const gone of ["ada wrote", "Registered"]) expect(md).not.toContain(gone)
    expect(md).not.toMatch(/(?:^|· )Last edited/m)
  })

  it("reads the question above short answers, found by the block that holds their text", () => {
    const md = read(shortAnswers)!
    expect(md).toContain("asker writes post 0")
    expect(md.indexOf("asker writes")).toBeLessThan(md.indexOf("ada presses"))
    for (const who of ["ada", "grace", "alan"]) expect(md).toContain(`${who} presses Ctrl+E`)
  })

  it("takes the author from a member's page, not from a share link, without the icons row and menus", () => {
    const md = read(shared)!
    for (const [i, who] of ["ada", "grace", "alan"].entries()) {
      expect(md).toContain(`**${who}** ·`)
      expect(md).toContain(`${who} writes post ${i}`)
    }
    for (const gone of ["**facebook**", "Reply with quote", "Post Options"]) expect(md).not.toContain(gone)
  })

  it("reads the author's name from the first link that has one, not from the pane around it", () => {
    const md = read(paned)!
    for (const [i, who] of ["ada", "grace", "alan"].entries()) expect(md).toContain(`**${who}** · April 1${i}, 2024`)
  })

  it("reads an issue tracker's comments with their code", () => {
    const md = read(issue)!
    expect(md).toContain("**grace** · May 2, 2024")
    expect(md).toContain('```toml\nrust-version = "1.81"\n```')
    expect(md).not.toContain("👍")
  })

  it("leaves an article with a few comments to the article path, and an article without any", () => {
    const prose = Array.from(
      { length: 12 },
      (_, i) => `<p>Paragraph ${i} of the story tells, in long and careful sentences, how the harbour was rebuilt.</p>`
    ).join("")
    const article = page(
      "The harbour",
      `<article>${prose}</article><section class="comments">${["ada", "grace"]
        .map(
          (who, i) =>
            `<div class="comment"><a class="author" href="/u/${who}">${who}</a> <time>Jan ${i + 1}, 2024</time>` +
            `<p>Nice piece, thanks for writing it all up so carefully.</p></div>`
        )
        .join("")}</section>`
    )
    expect(read(article)).toBeUndefined()
    // Read as a forum on purpose, it loses nothing: the article path reads it.
    const forced = MainContent.fromHtml(article, { pageType: "forum", url: "https://example.com/harbour" })
    expect(forced.method).not.toBe("reader")
    expect(forced.markdown).toContain("Paragraph 11 of the story")
    expect(read(page("Plain", prose))).toBeUndefined()
  })

  it("leaves the page as it found it when it declines", () => {
    const doc = HtmlDocument.parse(page("Plain", "<p>Nothing here but a line of text.</p>"))
    const before = doc.body?.innerHTML
    expect(ForumPage.read(doc, context)).toBeUndefined()
    expect(doc.body?.innerHTML).toBe(before)
  })

  it("is what the dispatcher runs on a detected thread", () => {
    const result = MainContent.fromHtml(board, { url: "https://forum.example/viewtopic.php?t=7" })
    expect(result.pageType).toBe("forum")
    expect(result.method).toBe("reader")
  })
})

describe("post shapes", () => {
  const parse = (html: string) => HtmlDocument.parse(html).body!.firstElementChild!

  it("names an element by its tag and first class names, without numbers, hashes and states", () => {
    expect(PostStructure.shapeOf(parse('<div class="post has-profile bg2 odd">x</div>'))).toBe("div.post")
    expect(PostStructure.shapeOf(parse('<div class="message message--post js-post">x</div>'))).toBe(
      "div.message.message--post.js-post"
    )
    // Hashed and utility classes say nothing of what an element is: a div with only those is a bare div.
    expect(PostStructure.shapeOf(parse('<div class="css-1x2y3z">x</div>'))).toBeUndefined()
    expect(PostStructure.shapeOf(parse('<div class="d-flex pt-4 md:flex-row text-sm post">x</div>'))).toBe("div.post")
    expect(PostStructure.shapeOf(parse('<li class="pt-4 topic-owner-post" component="post">x</li>'))).toBe("li@post")
    expect(PostStructure.shapeOf(parse("<span class='author'>x</span>"))).toBeUndefined()
    expect(PostStructure.shapeOf(parse("<div>x</div>"))).toBeUndefined()
    expect(PostStructure.shapeOf(parse("<shreddit-comment>x</shreddit-comment>"))).toBe("shreddit-comment")
  })

  // Whatever is alternated onto a post (odd/even, a number, a state), its shape stays that of its siblings.
  it.prop(
    "same-shaped siblings keep one shape whatever state and number classes they carry",
    [
      FastCheck.array(
        FastCheck.constantFrom(
          "odd",
          "even",
          "rowodd",
          "roweven",
          "bg1",
          "bg2",
          "is-open",
          "has-profile",
          "post-123",
          "new"
        ),
        {
          maxLength: 4
        }
      )
    ],
    ([extra]) => {
      expect(PostStructure.shapeOf(parse(`<article class="message ${extra.join(" ")} reply">x</article>`))).toBe(
        "article.message.reply"
      )
    }
  )

  it("finds a date as posts show it", () => {
    for (const date of ["3 days ago", "Jan 5, 2024", "5 January 2024", "2024-01-05", "05.01.2024", "Jul '24"]) {
      expect(PostStructure.dateLike.test(date), date).toBe(date !== "Jul '24")
    }
  })
})

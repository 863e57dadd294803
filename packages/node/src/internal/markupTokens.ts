/**
 * A linear walk over the tags and text of an HTML or XML document, for the site parsers (sitemaps, feeds, a page's
 * links). It drives htmlparser2's `Tokenizer` (a state machine, one pass) and not its `Parser`: the parser keeps
 * the open elements in an array it shifts and searches on every tag, quadratic in a hostile document's nesting.
 * Here no element stack is kept at all; each parser keeps only the few states it needs.
 *
 * htmlparser2 is loaded on first use (`load`), so a program that never maps or crawls a site never loads it.
 */
import type * as Htmlparser2 from "htmlparser2"

/** The htmlparser2 module, as `load` gives it. */
export type Module = typeof Htmlparser2

/** Loads htmlparser2 (once; later calls share the import). */
export const load = (): Promise<Module> => (loaded ??= import("htmlparser2"))

let loaded: Promise<Module> | undefined

/** What a walk reports. Names are lower-cased and, in XML, without their namespace prefix (`sitemap:loc` is `loc`). */
export interface Handler {
  /** Whether the attributes of this element are wanted (others are never collected). */
  readonly wants: (name: string) => boolean
  /** An element opens; `attributes` is empty unless `wants(name)` said yes (names lower-cased, first one wins). */
  readonly open: (name: string, attributes: ReadonlyMap<string, string>) => void
  readonly close: (name: string) => void
  /** Text (entities decoded, CDATA included), in pieces. */
  readonly text: (text: string) => void
}

/** The handle a walk's callbacks may use to stop it early (a bound reached). */
export interface Walk {
  readonly stop: () => void
}

const none: ReadonlyMap<string, string> = new Map()

const localName = (raw: string, xmlMode: boolean): string => {
  const lower = raw.toLowerCase()
  if (!xmlMode) return lower
  const colon = lower.indexOf(":")
  return colon === -1 ? lower : lower.slice(colon + 1)
}

/**
 * Walks `text` once, reporting to the handler made from the walk's handle. Never throws: a failure inside the
 * tokenizer (none is known) ends the walk with what was reported so far.
 */
export const walk = (module: Module, text: string, xmlMode: boolean, make: (walk: Walk) => Handler): void => {
  let name = ""
  let collect = false
  let attributes = new Map<string, string>()
  let attribute = ""
  let value = ""
  const slice = (start: number, end: number) => text.slice(start, end)
  const tokenizer: InstanceType<Module["Tokenizer"]> = new module.Tokenizer(
    { xmlMode, decodeEntities: true },
    {
      onattribdata: (start, end) => {
        if (collect) value += slice(start, end)
      },
      onattribentity: (codepoint) => {
        if (collect) value += String.fromCodePoint(codepoint)
      },
      onattribend: () => {
        if (collect && !attributes.has(attribute)) attributes.set(attribute, value)
        value = ""
      },
      onattribname: (start, end) => {
        if (collect) attribute = slice(start, end).toLowerCase()
        value = ""
      },
      oncdata: (start, end, offset) => handler.text(slice(start, end - offset)),
      onclosetag: (start, end) => handler.close(localName(slice(start, end), xmlMode)),
      oncomment: () => {},
      ondeclaration: () => {},
      onend: () => {},
      onopentagend: () => {
        handler.open(name, collect ? attributes : none)
      },
      onopentagname: (start, end) => {
        name = localName(slice(start, end), xmlMode)
        collect = handler.wants(name)
        if (collect) attributes = new Map()
      },
      onprocessinginstruction: () => {},
      onselfclosingtag: () => {
        handler.open(name, collect ? attributes : none)
        handler.close(name)
      },
      ontext: (start, end) => handler.text(slice(start, end)),
      ontextentity: (codepoint) => handler.text(String.fromCodePoint(codepoint))
    }
  )
  const handler = make({ stop: () => tokenizer.pause() })
  try {
    tokenizer.write(text)
    if (tokenizer.running) tokenizer.end()
  } catch {
    // What was reported stands; a document the tokenizer cannot finish is read as far as it got.
  }
}

/** Collapses white space runs to one space and trims, keeping at most `max` characters. Linear. */
export const squash = (text: string, max: number): string => {
  let out = ""
  let space = false
  for (let i = 0; i < text.length && out.length < max; i++) {
    const code = text.charCodeAt(i)
    if (code <= 0x20) space = out.length > 0
    else {
      if (space) out += " "
      space = false
      out += text[i]
    }
  }
  return out.slice(0, max)
}

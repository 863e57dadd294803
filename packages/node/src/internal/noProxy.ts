/**
 * `NO_PROXY` as curl reads it: a comma- (or space-) separated list of entries, each a host name, an IP address or
 * a CIDR block, optionally with a port. `*` alone sends everything direct. A name matches itself and every name
 * under it, written with or without a leading `.` or `*.` (`example.com`, `.example.com` and `*.example.com` all
 * match `example.com` and `api.example.com`, never `badexample.com`). An address matches itself, a block every
 * address inside it. An entry with a port (`example.com:8080`, `[::1]:8080`) matches that port only. Matching is
 * case-insensitive and ignores a trailing dot; an entry that is none of these is ignored, as curl does.
 *
 * Matching is linear in the host and the list: suffixes are compared, no pattern is compiled from the input.
 */
import * as net from "node:net"

/** One parsed entry. */
type Entry =
  | { readonly _tag: "Name"; readonly name: string; readonly port: number | undefined }
  | { readonly _tag: "Block"; readonly blocks: net.BlockList; readonly port: number | undefined }

/** A parsed `NO_PROXY`: everything direct, or these entries. */
export interface NoProxy {
  readonly all: boolean
  readonly entries: ReadonlyArray<Entry>
}

/** No entries: every host goes through the proxy. */
export const none: NoProxy = { all: false, entries: [] }

const trimDots = (host: string): string => {
  let end = host.length
  while (end > 0 && host.charCodeAt(end - 1) === 46) end--
  return host.slice(0, end)
}

/** A host as compared: lower case, no brackets, no trailing dot. */
export const normalizeHost = (host: string): string => {
  const lower = host.toLowerCase()
  const bare = lower.startsWith("[") && lower.endsWith("]") ? lower.slice(1, -1) : lower
  return trimDots(bare)
}

const parsePort = (text: string): number | undefined | null => {
  if (text === "") return undefined
  if (!/^\d{1,5}$/.test(text)) return null
  const port = Number(text)
  return port >= 1 && port <= 65535 ? port : null
}

/** Splits `host:port`, `[v6]:port`, a bare IPv6 address or a CIDR block; `null` when the port is not one. */
const splitPort = (text: string): { readonly host: string; readonly port: number | undefined } | null => {
  if (text.startsWith("[")) {
    const close = text.indexOf("]")
    if (close === -1) return null
    const rest = text.slice(close + 1)
    if (rest !== "" && !rest.startsWith(":")) return null
    const port = parsePort(rest.slice(1))
    return port === null ? null : { host: text.slice(1, close), port }
  }
  const colon = text.indexOf(":")
  // More than one colon without brackets is an IPv6 address (or block), never a port.
  if (colon === -1 || text.indexOf(":", colon + 1) !== -1) return { host: text, port: undefined }
  const port = parsePort(text.slice(colon + 1))
  return port === null ? null : { host: text.slice(0, colon), port }
}

const parseEntry = (raw: string): Entry | undefined => {
  const split = splitPort(raw.toLowerCase())
  if (split === null) return undefined
  const { port } = split
  const slash = split.host.indexOf("/")
  if (slash !== -1) {
    const address = split.host.slice(0, slash)
    const prefixText = split.host.slice(slash + 1)
    const family = net.isIP(address)
    if (family === 0 || !/^\d{1,3}$/.test(prefixText)) return undefined
    const prefix = Number(prefixText)
    if (prefix > (family === 4 ? 32 : 128)) return undefined
    const blocks = new net.BlockList()
    blocks.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6")
    return { _tag: "Block", blocks, port }
  }
  const family = net.isIP(split.host)
  if (family !== 0) {
    const blocks = new net.BlockList()
    blocks.addAddress(split.host, family === 4 ? "ipv4" : "ipv6")
    return { _tag: "Block", blocks, port }
  }
  const name = trimDots(split.host.startsWith("*.") ? split.host.slice(2) : split.host.replace(/^\.+/, ""))
  return name === "" || name.includes("*") ? undefined : { _tag: "Name", name, port }
}

/**
 * The entries of a `NO_PROXY` text that mean nothing here (`10.*`, a port out of range, a block over /32): they are
 * skipped, as curl skips them, and said once at start so a host the user meant to keep direct is not sent to the
 * proxy without a word.
 */
export const unreadable = (text: string | undefined): ReadonlyArray<string> =>
  text === undefined
    ? []
    : text
        .split(/[\s,]+/)
        .filter((item) => item !== "" && item !== "*" && parseEntry(item) === undefined)
        .slice(0, 20)

/** Parses the text of `NO_PROXY`. */
export const parse = (text: string | undefined): NoProxy => {
  if (text === undefined) return none
  const items = text.split(/[\s,]+/).filter((item) => item !== "")
  if (items.includes("*")) return { all: true, entries: [] }
  const entries: Array<Entry> = []
  for (const item of items) {
    const entry = parseEntry(item)
    if (entry !== undefined) entries.push(entry)
  }
  return { all: false, entries }
}

const underName = (host: string, name: string): boolean =>
  host === name ||
  (host.length > name.length && host.endsWith(name) && host.charCodeAt(host.length - name.length - 1) === 46)

const inBlock = (blocks: net.BlockList, host: string): boolean => {
  const family = net.isIP(host)
  if (family === 0) return false
  return blocks.check(host, family === 4 ? "ipv4" : "ipv6")
}

/** Whether a request to `host` on `port` goes direct (the host as a URL gives it; brackets allowed). */
export const matches = (self: NoProxy, host: string, port: number): boolean => {
  if (self.all) return true
  const target = normalizeHost(host)
  const literal = net.isIP(target) !== 0
  return self.entries.some((entry) => {
    if (entry.port !== undefined && entry.port !== port) return false
    switch (entry._tag) {
      case "Name":
        return !literal && underName(target, entry.name)
      case "Block":
        return literal && inBlock(entry.blocks, target)
    }
  })
}

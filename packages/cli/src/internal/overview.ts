/**
 * The overview `websearch --help` prints: every command on one line, the options they share, where settings come
 * from and the exit codes. Each command's own help (`websearch COMMAND --help`) comes from the command tree.
 */
export const text = `websearch — web search, page fetching and provider checks

Usage:
  websearch search KEYWORD...   search the web, one query per argument ('-' reads standard input)
  websearch fetch URL...        fetch http(s) URLs; a bare domain means https ('-' reads standard input)
  websearch map URL             list a site's URLs (sitemaps, feeds, links) without reading its pages
  websearch crawl URL           read a site's pages breadth-first, printing each as it arrives
  websearch research BRIEF      research one brief with a hosted provider (--allow-domain to restrict)
  websearch providers           list providers, their capabilities, endpoints and defaults
  websearch check ID            run every capability of a provider once and report each
  websearch doctor              check every configured provider, the stores, Chromium and the settings file
  websearch config path|init    print the settings file in use, or write a commented starting file
  websearch mcp                 serve the web_search, web_fetch, ... tools over MCP (stdio)
  websearch serve               serve the HTTP API (POST /v1/search, /v1/fetch, /v1/research, ...)
  websearch completions SHELL   print a completion script for bash, fish or zsh
  websearch help COMMAND        the options of one command (the same as websearch COMMAND --help)

Options (see each command's --help for all of them):
  --provider ID       use this provider instead of the capability's default (search: 2-5 times to fuse them)
  --max-results N     results per keyword, 1-50 (search)
  --time-range R      day, week, month or year (search; also --include-domain D and --exclude-domain D,
                      repeatable, --language CODE, --country CODE, --safe-search off|moderate|strict,
                      --topic general|news)
  --search TERM       rank a map's URLs by this term; --limit N the most URLs, 1-5000 (map)
  --max-pages N       the most pages to read, 1-10000; --max-depth D links from the start, 0-10 (crawl;
                      also --from-map, --concurrency N, --delay MS, --max-length N)
  --include PATTERN   only URLs whose path matches (/docs/, /blog/*.html$); --exclude PATTERN none that
                      match; repeatable; --include-subdomains (map, crawl)
  --format FORMAT     text (the default), markdown or json (search, fetch, research)
  --quiet, -q         results only: no progress lines, no closing summary (search, fetch, research, map,
                      crawl)
  --timeout SECONDS   each provider call's time limit, 1-3600 (search, fetch, research)
  --no-cache          bypass the persistent cache for this run (search, fetch)
  --allow-domain D    restrict research to a domain; repeatable (research; --domain is an alias)
  --allow-host HOST   let fetching reach this host although it is not public; repeatable
  --allow-cidr CIDR   let fetching reach addresses in this range (e.g. 198.18.0.0/15); repeatable
  --render MODE       render pages that need JavaScript in the system Chromium (fetch, mcp, serve):
                      auto (pages with little or no text, JavaScript shells, browser checks), always
                      (every HTML page) or never (the default; env FETCH_RENDER)
  --http PORT         serve MCP over streamable HTTP on this port instead of stdio (mcp)
  --port N            port to listen on, default 8080 (serve)
  --host HOST         address to bind, default 127.0.0.1 (serve, mcp --http)
  --insecure-no-auth  serve without bearer tokens (serve; only on a trusted network)
  --config FILE       JSON settings file (environment variables are laid over it)
  --json              print exactly one JSON object to stdout: {"ok":true,"response":...} or
                      {"ok":false,"error":{...},"failures":[...]}
  --verbose           log provider calls and failures to stderr
  -h, --help          show this help, or a command's help after the command
  --version           print the version

Without configuration, search uses DuckDuckGo and fetch uses the local fetcher.
Settings file: --config FILE, else WEBSEARCH_CONFIG, else $XDG_CONFIG_HOME/websearch/config.json
(~/.config/websearch/config.json) when it exists. Environment: <PROVIDER>_API_KEY (comma-separated keys
rotate), <PROVIDER>_API_HOST, WEBSEARCH_DEFAULT_SEARCH_KEYWORDS_PROVIDER, WEBSEARCH_DEFAULT_FETCH_URLS_PROVIDER.
Output: colour only on a terminal and never with NO_COLOR; COLUMNS sets the wrapping width.

Exit codes: 0 success (also when some inputs failed and others succeeded), 1 the request failed,
2 usage error, 130 interrupted (what was already fetched is printed first; a crawl keeps the pages it printed).
`

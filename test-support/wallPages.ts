/**
 * Small hand-written pages in the markup shapes of the walls sites put in front of their content (bot checks of
 * several vendors, a page asking for JavaScript, login and paywall shells, full-page consent walls), and ordinary
 * pages that carry a wall's pieces (a cookie banner, a protection script, a CAPTCHA on a form, a sign-in link) and
 * must still be read. Written for the tests from the vendors' documented shapes; no page is a copy of a real one.
 */

/** Which wall a page is, by the detector's kinds; `undefined` for an ordinary page. */
export interface WallPage {
  readonly name: string
  readonly html: string
  readonly kind: "challenge" | "javascript" | "login" | "consent" | undefined
  readonly vendor?: string | undefined
  /** The HTTP status a site answers it with (200 when absent). */
  readonly status?: number | undefined
}

const article = (paragraphs: number): string =>
  Array.from(
    { length: paragraphs },
    (_, i) =>
      `<p>Paragraph ${i + 1} follows the night ferry across the bay, where the crew trims the lines, checks the ` +
      `lanterns and talks about the weather, the harbour master and the long winter that is coming to the islands.</p>`
  ).join("\n")

export const cloudflare: WallPage = {
  name: "Cloudflare managed challenge",
  kind: "challenge",
  vendor: "Cloudflare",
  status: 403,
  html: `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta name="robots" content="noindex,nofollow"></head><body>
<div class="main-wrapper" role="main"><div class="main-content"><h1 class="zone-name-title h1">shop.example</h1>
<h2 id="challenge-running" class="h2">Checking if the site connection is secure</h2>
<noscript><div id="challenge-error-title"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></noscript>
<div id="challenge-body-text" class="core-msg spacer">shop.example needs to review the security of your connection before proceeding.</div>
</div></div>
<script>(function(){window._cf_chl_opt={cvId: '3',cZone: "shop.example",cType: 'managed'};var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=8a1b';document.getElementsByTagName('head')[0].appendChild(a);}());</script>
<div class="footer" role="contentinfo"><div class="ray-id">Ray ID: <code>8a1b2c3d4e5f6a7b</code></div>
<div class="text-center" id="footer-text">Performance &amp; security by Cloudflare</div></div>
</body></html>`
}

export const dataDome: WallPage = {
  name: "DataDome interstitial",
  kind: "challenge",
  vendor: "DataDome",
  status: 403,
  html: `<html><head><title>shop.example</title><style>#cmsg{animation: A 1.5s;}</style></head><body style="margin:0">
<p id="cmsg">Please enable JS and disable any ad blocker</p>
<script data-cfasync="false">var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'2211F522B61E269B','t':'fe','s':17434,'host':'geo.captcha-delivery.com'}</script>
<script data-cfasync="false" src="https://ct.captcha-delivery.com/c.js"></script></body></html>`
}

export const perimeterX: WallPage = {
  name: "PerimeterX / HUMAN press and hold",
  kind: "challenge",
  vendor: "PerimeterX",
  status: 403,
  html: `<html lang="en"><head><title>Access to this page has been denied</title></head><body>
<div class="px-captcha-container"><div class="px-captcha-header">Before we continue...</div>
<div class="px-captcha-message">Press &amp; Hold to confirm you are a human (and not a bot).</div>
<div id="px-captcha"></div></div><div class="px-captcha-refid">Reference ID 1a2b3c4d-0000-11ee-9a8b-1234567890ab</div>
<script>window._pxAppId='PXabc123';window._pxJsClientSrc='/abc123/init.js';</script>
<script src="https://captcha.px-cdn.net/PXabc123/captcha.js?a=c&u=1&m=0"></script></body></html>`
}

export const akamai: WallPage = {
  name: "Akamai access denied",
  kind: "challenge",
  vendor: "Akamai",
  status: 403,
  html: `<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY><H1>Access Denied</H1>
You don't have permission to access "http&#58;&#47;&#47;www&#46;shop&#46;example&#47;" on this server.<P>
Reference&#32;&#35;18&#46;5c1f0b17&#46;1700000000&#46;2a3b4c5d<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;5c1f0b17
</BODY></HTML>`
}

export const awsWaf: WallPage = {
  name: "AWS WAF challenge",
  kind: "challenge",
  vendor: "AWS WAF",
  status: 202,
  html: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title></title>
<script>window.awsWafCookieDomainList = [];window.gokuProps = {"key":"AQIDAHjcYu","iv":"D549","context":"abc"};</script>
<script src="https://5ec3.edge.sdk.awswaf.com/5ec3/challenge.js"></script></head><body><div id="challenge-container"></div>
<noscript><h1>JavaScript is disabled</h1>In order to continue, we need to verify that you're not a robot.
This requires JavaScript. Enable JavaScript and then reload the page.</noscript>
<script>AwsWafIntegration.checkForceRefresh().then((f) => { if (f) window.location.reload(true) })</script></body></html>`
}

export const incapsula: WallPage = {
  name: "Imperva / Incapsula block",
  kind: "challenge",
  vendor: "Imperva",
  html: `<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW">
<meta name="viewport" content="initial-scale=1.0"></head><body style="margin:0px;height:100%">
<iframe id="main-iframe" src="/_Incapsula_Resource?CWUDNSAI=23&xinfo=7-1234&incident_id=123-456&edet=15" frameborder=0 width="100%" height="100%">
Request unsuccessful. Incapsula incident ID: 123000450012345-67890</iframe></body></html>`
}

export const sucuri: WallPage = {
  name: "Sucuri CloudProxy JavaScript check",
  kind: "challenge",
  vendor: "Sucuri",
  html: `<html><title>You are being redirected...</title>
<noscript>Javascript is required. Please enable javascript before you are allowed to see this page.</noscript>
<script>var s={},u,c,U,r,i,l=0,a,e=eval,w=String.fromCharCode,sucuri_cloudproxy_js='',S='cz0iMSIuc3Vic3RyKDAsMSkg';
document.cookie='sucuri_cloudproxy_uuid_1=abc;path=/;max-age=86400';location.reload();</script></html>`
}

export const ddosGuard: WallPage = {
  name: "DDoS-Guard check",
  kind: "challenge",
  vendor: "DDoS-Guard",
  status: 403,
  html: `<!doctype html><html><head><title>DDoS-Guard</title></head><body><div id="ddg-l">
<h1>Checking your browser before accessing shop.example</h1>
<p>This process is automatic. Your browser will redirect to your requested content shortly.</p>
<p>Please allow up to 5 seconds…</p></div>
<script src="/.well-known/ddos-guard/check?context=free_splash"></script></body></html>`
}

export const hCaptcha: WallPage = {
  name: "hCaptcha wall",
  kind: "challenge",
  vendor: "hCaptcha",
  html: `<html><head><title>Security check</title><script src="https://js.hcaptcha.com/1/api.js" async defer></script></head>
<body><main><h1>One more step</h1><p>Please complete the security check to access shop.example.</p>
<form method="post" action="/verify"><div class="h-captcha" data-sitekey="10000000-ffff-ffff-ffff-000000000001"></div>
<button type="submit">Continue</button></form>
<p>Why do I have to complete a CAPTCHA? Completing the CAPTCHA proves you are a human and gives you temporary access.</p>
</main></body></html>`
}

export const reCaptcha: WallPage = {
  name: "reCAPTCHA unusual-traffic wall",
  kind: "challenge",
  vendor: "reCAPTCHA",
  status: 403,
  html: `<html><head><title>Sorry...</title><script src="https://www.google.com/recaptcha/api.js" async defer></script></head>
<body><div><h1>Sorry, we just need to make sure you're not a robot.</h1>
<p>Our systems have detected unusual traffic from your computer network. Please try your request again later, or solve the check below.</p>
<form action="/sorry/index" method="post"><div class="g-recaptcha" data-sitekey="6LfwuyUT"></div>
<input type="submit" value="Submit"></form></div></body></html>`
}

export const enableJavaScript: WallPage = {
  name: "enable-JavaScript interstitial",
  kind: "javascript",
  html: `<html><head><title>Example App</title><script src="/static/app.js"></script></head><body>
<div class="notice"><h1>JavaScript is required</h1>
<p>This site requires JavaScript to work. Please enable JavaScript in your browser settings and reload the page.</p>
</div></body></html>`
}

export const loginWall: WallPage = {
  name: "login wall",
  kind: "login",
  html: `<html><head><title>Sign in · Example Forum</title></head><body><header><a href="/">Example Forum</a></header>
<main><h1>Sign in to continue</h1><p>You must be logged in to view this discussion.</p>
<form action="/session" method="post"><label>Email or username <input name="login"></label>
<label>Password <input type="password" name="password"></label>
<label><input type="checkbox" name="remember"> Remember me</label><button>Sign in</button></form>
<p><a href="/password/reset">Forgot your password?</a> New here? <a href="/signup">Create an account</a></p></main>
<footer>© 2025 Example Forum</footer></body></html>`
}

export const paywall: WallPage = {
  name: "paywall-only article shell",
  kind: "login",
  html: `<html><head><title>Markets rally as rates hold | The Daily Example</title>
<meta property="og:type" content="article"></head><body><article><h1>Markets rally as rates hold</h1>
<p class="byline">By A. Writer</p><div class="paywall"><h2>Subscribe to continue reading</h2>
<p>This article is for subscribers only. Get unlimited access to The Daily Example for $1 a week.</p>
<a href="/subscribe">Subscribe now</a> <a href="/login">Already a subscriber? Log in</a></div></article></body></html>`
}

export const oneTrustWall: WallPage = {
  name: "OneTrust full-page consent wall",
  kind: "consent",
  vendor: "OneTrust",
  html: `<html><head><title>Before you continue</title>
<script src="https://cdn.cookielaw.org/scripttemplates/otSDKStub.js" data-domain-script="0000"></script></head><body>
<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk" role="dialog"><h2 id="onetrust-policy-title">We value your privacy</h2>
<p id="onetrust-policy-text">We and our partners store and/or access information on a device, such as cookies, and process
personal data, such as unique identifiers and standard information sent by a device, for personalised ads and content,
ad and content measurement, and audience insights, as well as to develop and improve products.</p>
<p>With your permission we and our partners may use precise geolocation data and identification through device
scanning. You may click to consent to our and our partners' processing as described above.</p>
<div id="onetrust-button-group"><button id="onetrust-accept-btn-handler">Accept all</button>
<button id="onetrust-reject-all-handler">Reject all</button><button id="onetrust-pc-btn-handler">Manage preferences</button>
</div></div></div></body></html>`
}

export const sourcepointWall: WallPage = {
  name: "Sourcepoint / TCF consent wall",
  kind: "consent",
  vendor: "Sourcepoint",
  html: `<html><head><title>news.example</title>
<script>window.__tcfapi=function(){};window._sp_={config:{accountId:1}}</script></head><body>
<div id="sp_message_container_1" class="sp_message_container"><div class="message"><h1>Your privacy choices</h1>
<p>To continue reading news.example you need to make a choice. We use cookies and similar technologies to measure
the audience and show personalised advertising.</p>
<p>You can accept all, or reject all and read our free articles with limited features.</p>
<button>Accept all</button><button>Reject all</button><a href="/privacy">Privacy policy</a></div></div></body></html>`
}

/** An article with a server-rendered cookie banner, a consent manager's script and a bot manager's script. */
export const articleWithBanner: WallPage = {
  name: "article with a cookie banner and protection scripts",
  kind: undefined,
  html: `<!doctype html><html><head><title>Night ferry to the islands</title>
<script src="https://cdn.cookielaw.org/scripttemplates/otSDKStub.js"></script>
<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>
<script src="https://js.datadome.co/tags.js"></script></head><body>
<nav><a href="/">Home</a> <a href="/login">Sign in</a></nav>
<article><h1>Night ferry to the islands</h1>${article(8)}</article>
<div id="cookie-banner" class="cookie-notice"><p>We use cookies to improve your experience and to measure the audience
of this site. By clicking Accept all you consent to our use of cookies.</p><button>Accept all</button><button>Reject all</button></div>
<form class="comments"><div class="g-recaptcha" data-sitekey="6Lf"></div><textarea></textarea><button>Post</button></form>
<footer>Sign in to continue the discussion. © 2025 The Bay Times</footer></body></html>`
}

/** An article about bot checks: their words, at length, as its subject. */
export const articleAboutChallenges: WallPage = {
  name: "article about CAPTCHAs and bot checks",
  kind: undefined,
  html: `<!doctype html><html><head><title>Why sites ask if you are a robot</title></head><body><article>
<h1>Why sites ask if you are a robot</h1>
<p>Every so often a site stops you with a page that says "Just a moment" or asks you to verify you are human. These
checks, from vendors such as Cloudflare, DataDome and Akamai, look at your browser before they let you in.</p>
<p>A CAPTCHA asks you to pick the pictures with traffic lights; a press and hold button measures how your pointer
moves. Both try to tell people from scripts that copy prices or flood login forms with stolen passwords.</p>
<p>Critics say the checks shut out people who use screen readers or older browsers, and that the puzzles train
image models for free. Supporters answer that without them many small shops would be overrun by scrapers.</p>
<p>For readers the advice is simple: keep JavaScript and cookies enabled, avoid unusual traffic from shared networks
and do not be surprised when a site asks for a security check after you open many pages quickly.</p>
</article></body></html>`
}

/** A short contact page with a CAPTCHA on its form: little text, but no wall. */
export const contactPage: WallPage = {
  name: "short contact page with a reCAPTCHA form",
  kind: undefined,
  html: `<html><head><title>Contact</title><script src="https://www.google.com/recaptcha/api.js"></script></head><body>
<h1>Contact the harbour office</h1><p>Write to us about moorings, ferry timetables or lost property, and we answer
within two working days.</p><form><input name="email"><textarea name="message"></textarea>
<div class="g-recaptcha" data-sitekey="6Lf"></div><button>Send</button></form></body></html>`
}

/** Every wall page. */
export const walls: ReadonlyArray<WallPage> = [
  cloudflare,
  dataDome,
  perimeterX,
  akamai,
  awsWaf,
  incapsula,
  sucuri,
  ddosGuard,
  hCaptcha,
  reCaptcha,
  enableJavaScript,
  loginWall,
  paywall,
  oneTrustWall,
  sourcepointWall
]

/** The ordinary pages that carry a wall's pieces. */
export const ordinary: ReadonlyArray<WallPage> = [articleWithBanner, articleAboutChallenges, contactPage]

/**
 * Prompts addressed to the reader inside the article: calls to subscribe or sign up, paywall notices, requests to
 * rate, share or comment on the article, "load more" and "external content" placeholders, advertisement labels.
 * They are set as short blocks of their own, and they open with a small set of stock phrases in every language a
 * publisher writes; a paragraph of the article that merely mentions a subscription does not open with them. Tested
 * on the start of a block's text only (anchored, no nested quantifiers: linear).
 */
import type { Rule } from "./boilerplate.js"

const prompt = new RegExp(
  "^(?:" +
    [
      // Rating, sharing, feedback.
      "(?:war|ist) (?:der|dieser|die|diese) (?:artikel|beitrag|seite|information(?:en)?) (?:nützlich|hilfreich|interessant)",
      "möchten sie (?:den|diesen) (?:artikel|beitrag) (?:teilen|bewerten|empfehlen)",
      "hier können sie (?:den|diesen) (?:artikel|beitrag) (?:bewerten|teilen|kommentieren)",
      "(?:\\(\\s*)?(?:noch )?keine bewertungen",
      "(?:bitte )?bewerten sie (?:den|diesen|unseren)",
      "wie (?:hat|gefällt) ihnen (?:der|dieser|unser) (?:artikel|beitrag)",
      "(?:was|is) this (?:article|post|page|story|information) (?:helpful|useful)",
      "did you (?:like|enjoy|find) this",
      "if you (?:enjoyed|liked|found) (?:reading )?this",
      "we want to hear what you think",
      "tell us what you think",
      "give us feedback",
      "share this (?:article|post|story|page)",
      "verraten sie (?:uns )?(?:gerne )?in den kommentaren",
      "kommentare? (?:schreiben|verfassen|geschlossen)",
      "kommentare sind geschlossen",
      "keine kommentare",
      "comments are closed",
      "bloggern gefällt das",
      // Following the publisher elsewhere.
      "follow (?:us|me|the [^.]{0,40}) on (?:twitter|facebook|instagram|linkedin|youtube)",
      "you can (?:keep up with|follow) (?:me|us) on",
      "folgen sie uns auf",
      "¡?mira lo que tiene nuestro canal",
      // Rights notices.
      "this (?:article|content|story) is the copyrighted property",
      "written permission must be obtained",
      "materiał chroniony prawem",
      "alle angaben ohne gewähr",
      // Subscriptions and paywalls.
      "möchten sie weiterlesen",
      "(?:ja\\. )?ich bin (?:bereits )?abonnent",
      "(?:ja\\. )?ich benötige ein abo",
      "jetzt (?:abonnieren|abo abschließen|registrieren und weiterlesen)",
      "to (?:view|read|continue reading|access) the (?:full|entire|rest of the) (?:story|article)",
      "if you['’]re (?:seeing this message but you['’]re )?already a subscriber",
      "already a subscriber\\?",
      "subscribe (?:now|today) (?:to|for)",
      "never miss (?:the latest|a story|another)",
      "sign up (?:for|to) (?:our|the) (?:free )?(?:newsletter|daily|weekly)",
      "for the latest (?:stories|news|headlines)\\b.{0,80}\\bdownload",
      "download (?:the|our) [^.]{0,40}\\bapps?\\b",
      "submit your letter to the editor",
      "hazte (?:miembro|socio)",
      "suscríbete",
      "tú también puedes hacer periodismo",
      "zapraszamy (?:też )?do subskrypcji",
      "pour lire la suite",
      "la suite (?:de cet article )?est réservée aux abonnés",
      "sie sind (?:aktuell |derzeit |noch )?nicht (?:eingeloggt|angemeldet)",
      // A teaser's label before the headline it points to, or alone ("Lea también: …", "Schon gelesen?").
      "(?:lea|lee|vea|leia|veja) (?:también|também|más|mais)\\s*:",
      "(?:le|te) puede interesar\\b",
      "mira\\s*:\\s",
      "(?:czytaj (?:też|także|więcej)|schon gelesen|lesen sie auch(?: die folgenden beiträge)?|das könnte (?:sie|dich) auch interessieren)\\s*[:!?.]?\\s*$",
      "meist(?:gelesene|diskutierte|kommentierte|geklickte) (?:artikel|beiträge|nachrichten|news)\\s*$",
      "zurück(?: zur (?:listenansicht|übersicht|startseite))?\\s*$",
      "(?:nach oben|back to top)\\s*$",
      // Placeholders and labels.
      "lade weitere inhalte",
      "weitere inhalte laden",
      "load more (?:stories|articles|comments)?",
      "externer inhalt",
      "quellen (?:ausblenden|einblenden|anzeigen)",
      "advertising disclosure",
      "[-–\\s]*anzeige[-–:\\s]*$",
      "[-–\\s]*anzeige\\s*[-–:]\\s",
      "(?:advertisement|werbung|publicidad|publicité|reklama)\\s*$"
    ].join("|") +
    ")",
  "iu"
)

const blockNames = new Set([
  "p",
  "div",
  "span",
  "li",
  "strong",
  "b",
  "em",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "small",
  "P",
  "DIV"
])

/** A prompt to the reader (see the module comment): a short block whose text opens with one of the stock phrases. */
export const promptRule: Rule = (element, facts) =>
  facts.stats.text > 0 &&
  facts.stats.text <= 200 &&
  !facts.stats.embed &&
  blockNames.has(element.localName) &&
  prompt.test(facts.head())

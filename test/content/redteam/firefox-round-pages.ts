// Pages, SVG and XML documents that are live in Firefox in ways the Chromium rounds do not spell out (issue 41 item
// 1): MathML `href`, SVG links written with any xlink prefix, given a `javascript:` href by `<set>`/`<animate>` (char
// references, entities, value lists, targets named by `href`), SVG documents as `<object>`/`<embed>`/frame `data:`
// urls, SMIL and CSS animation events, `xml-stylesheet` css off the origin (no type, alternate, print media,
// scheme-relative), XHTML elements directly in an SVG document, XSLT that turns an XML document into a page, and XML
// documents Firefox renders with their XHTML, SVG and MathML live. Benign controls that Firefox loads inert.
import { ran, svgNs, xhtmlNs } from './browser-round-pages.ts';
import { type Sending, sendingsOf } from './judge-variants.ts';

/** One case: name, the type Firefox is served, the body, what to do after load (`leaves` or a selector to click), more files of the origin. */
export interface FirefoxCase {
  readonly name: string;
  readonly served: string;
  readonly body: string | Buffer;
  readonly then?: string;
  readonly files?: Readonly<Record<string, readonly [type: string, body: string]>>;
}

const beacon = "fetch('http://page.test/ran')";
const xl = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
const mathNs = 'http://www.w3.org/1998/Math/MathML';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const box = '<rect width="100" height="100"/>';
const svgDoc = (inner: string, attrs = ''): string =>
  `<svg xmlns="${svgNs}"${attrs} width="100" height="100">${inner}</svg>`;
const remoteCss = 'http://evil.test/x.css';
const xsltHtml = `<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><html xmlns="${xhtmlNs}"><body><script>${ran}</script></body></html></xsl:template></xsl:stylesheet>`;

/** Pages Firefox runs or lets leave. */
export const firefoxPageAttacks: FirefoxCase[] = [
  {
    name: 'a MathML href',
    served: 'text/html',
    body: `<math href="javascript:${ran}"><mtext id="l">click me please</mtext></math>`,
    then: '#l',
  },
  {
    name: 'a MathML mtext href',
    served: 'text/html',
    body: `<math><mtext id="l" href="javascript:${ran}">click me please</mtext></math>`,
    then: '#l',
  },
  {
    name: 'an svg link by xlink:href in html',
    served: 'text/html',
    body: `<svg width="100" height="100"><a xlink:href="javascript:${ran}" id="l">${box}</a></svg>`,
    then: '#l',
  },
  {
    name: 'an svg set giving a link its href in html',
    served: 'text/html',
    body: `<svg width="100" height="100"><a id="l">${box}<set attributeName="href" to="javascript:${ran}"/></a></svg>`,
    then: '#l',
  },
  {
    name: 'an svg animate values giving a link its href in html',
    served: 'text/html',
    body: `<svg width="100" height="100"><a id="l">${box}<animate attributeName="href" values="javascript:${ran}" dur="9s"/></a></svg>`,
    then: '#l',
  },
  {
    name: 'an object showing an svg data: url with onload',
    served: 'text/html',
    body: `<object data="data:image/svg+xml;base64,${b64(`<svg xmlns="${svgNs}" onload="${beacon}"/>`)}"></object>`,
  },
  {
    name: 'an embed showing an svg data: url with a script',
    served: 'text/html',
    body: `<embed src="data:image/svg+xml;base64,${b64(`<svg xmlns="${svgNs}"><script>${beacon}</script></svg>`)}">`,
  },
  {
    name: 'an iframe showing an svg data: url',
    served: 'text/html',
    body: `<iframe src="data:image/svg+xml,${encodeURIComponent(`<svg xmlns="${svgNs}" onload="${beacon}"/>`)}"></iframe>`,
  },
  {
    name: 'an svg animate onend',
    served: 'text/html',
    body: `<svg><animate attributeName="x" dur="0.001s" onend="${ran}"/></svg>`,
  },
  {
    name: 'an svg animate onrepeat',
    served: 'text/html',
    body: `<svg><animate attributeName="x" dur="0.001s" repeatCount="3" onrepeat="${ran}"/></svg>`,
  },
  {
    name: 'a css animation onanimationstart',
    served: 'text/html',
    body: `<style>@keyframes k{from{opacity:0}}</style><p style="animation:k 1ms" onanimationstart="${ran}">x</p>`,
  },
  {
    name: 'a css animation onanimationend',
    served: 'text/html',
    body: `<style>@keyframes k{from{opacity:0}}</style><p style="animation:k 1ms" onanimationend="${ran}">x</p>`,
  },
  {
    name: 'a form action javascript:',
    served: 'text/html',
    body: `<form action="javascript:${ran}"><input type="submit" id="l" value="go go go go"></form>`,
    then: '#l',
  },
  {
    name: 'a link href javascript&colon;',
    served: 'text/html',
    body: `<a id="l" href="javascript&colon;${ran}">click me please</a>`,
    then: '#l',
  },
  {
    name: 'a link href java&Tab;script:',
    served: 'text/html',
    body: `<a id="l" href="java&Tab;script:${ran}">click me please</a>`,
    then: '#l',
  },
  {
    name: 'an uppercase @IMPORT off the page',
    served: 'text/html',
    body: `<p>x</p><style>@IMPORT url(${remoteCss});</style>`,
    then: 'leaves',
  },
  {
    name: 'an alternate stylesheet off the page',
    served: 'text/html',
    body: `<link rel="alternate stylesheet" title="t" href="${remoteCss}"><p>x</p>`,
    then: 'leaves',
  },
  {
    name: 'a stylesheet rel with a tab and capitals',
    served: 'text/html',
    body: `<link rel="\tStyleSheet " href="${remoteCss}"><p>x</p>`,
    then: 'leaves',
  },
  {
    name: 'a refresh with a comma',
    served: 'text/html',
    body: '<meta http-equiv="Refresh" content="0,http://evil.test/x"><p>x</p>',
    then: 'leaves',
  },
  {
    name: 'a refresh with a quoted url',
    served: 'text/html',
    body: `<meta http-equiv="refresh" content="0.5; URL='http://evil.test/x'"><p>x</p>`,
    then: 'leaves',
  },
];

/** SVG documents Firefox runs or lets leave. */
export const firefoxSvgAttacks: FirefoxCase[] = [
  {
    name: 'a css xml-stylesheet with no type',
    served: 'image/svg+xml',
    body: `<?xml-stylesheet href="${remoteCss}"?>${svgDoc(box)}`,
    then: 'leaves',
  },
  {
    name: 'an alternate css xml-stylesheet',
    served: 'image/svg+xml',
    body: `<?xml-stylesheet alternate="yes" title="x" type="text/css" href="${remoteCss}"?>${svgDoc(box)}`,
    then: 'leaves',
  },
  {
    name: 'a print-media xml-stylesheet',
    served: 'image/svg+xml',
    body: `<?xml-stylesheet media="print" href="${remoteCss}"?>${svgDoc(box)}`,
    then: 'leaves',
  },
  {
    name: 'a scheme-relative xml-stylesheet',
    served: 'image/svg+xml',
    body: `<?xml-stylesheet href="//evil.test/x.css"?>${svgDoc(box)}`,
    then: 'leaves',
  },
  {
    name: 'an xhtml link stylesheet in foreignObject',
    served: 'image/svg+xml',
    body: svgDoc(
      `<foreignObject width="9" height="9"><link xmlns="${xhtmlNs}" rel="stylesheet" href="${remoteCss}"/></foreignObject>`,
    ),
    then: 'leaves',
  },
  {
    name: 'an xhtml link stylesheet outside foreignObject',
    served: 'image/svg+xml',
    body: svgDoc(`<link xmlns="${xhtmlNs}" rel="stylesheet" href="${remoteCss}"/>${box}`),
    then: 'leaves',
  },
  {
    name: 'an xhtml style @import outside foreignObject',
    served: 'image/svg+xml',
    body: svgDoc(`<style xmlns="${xhtmlNs}">@import "${remoteCss}";</style>${box}`),
    then: 'leaves',
  },
  {
    name: 'an @import after @charset',
    served: 'image/svg+xml',
    body: svgDoc(`<style type="text/css">@charset "utf-8";@import url(${remoteCss});</style>`),
    then: 'leaves',
  },
  {
    name: 'an xhtml refresh outside foreignObject',
    served: 'image/svg+xml',
    body: svgDoc(`<meta xmlns="${xhtmlNs}" http-equiv="refresh" content="0;url=http://evil.test/x"/>${box}`),
    then: 'leaves',
  },
  {
    name: 'an xhtml script outside foreignObject',
    served: 'image/svg+xml',
    body: svgDoc(`<script xmlns="${xhtmlNs}">${ran}</script>${box}`),
  },
  {
    name: 'an xhtml iframe outside foreignObject',
    served: 'image/svg+xml',
    body: svgDoc(`<iframe xmlns="${xhtmlNs}" src="javascript:parent.__ran=1"/>${box}`),
  },
  {
    name: 'a link by xlink:href',
    served: 'image/svg+xml',
    body: svgDoc(`<a xlink:href="javascript:${ran}" id="l">${box}</a>`, ` ${xl}`),
    then: '#l',
  },
  {
    name: 'a link by another prefix bound to xlink',
    served: 'image/svg+xml',
    body: svgDoc(`<a x:href="javascript:${ran}" id="l">${box}</a>`, ' xmlns:x="http://www.w3.org/1999/xlink"'),
    then: '#l',
  },
  {
    name: 'a link href from an internal entity',
    served: 'image/svg+xml',
    body: `<!DOCTYPE svg [<!ENTITY j "javascript:${ran}">]>${svgDoc(`<a id="l" href="&j;">${box}</a>`)}`,
    then: '#l',
  },
  {
    name: 'a set of xlink:href',
    served: 'image/svg+xml',
    body: svgDoc(`<a id="l">${box}<set attributeName="xlink:href" to="javascript:${ran}"/></a>`, ` ${xl}`),
    then: '#l',
  },
  {
    name: 'a set of another prefix:href',
    served: 'image/svg+xml',
    body: svgDoc(
      `<a id="l">${box}<set attributeName="x:href" to="javascript:${ran}"/></a>`,
      ' xmlns:x="http://www.w3.org/1999/xlink"',
    ),
    then: '#l',
  },
  {
    name: 'a set whose value opens with a character reference',
    served: 'image/svg+xml',
    body: svgDoc(`<a id="l">${box}<set attributeName="href" to="&#x6a;avascript:${ran}"/></a>`),
    then: '#l',
  },
  {
    name: 'a set whose value comes from an entity',
    served: 'image/svg+xml',
    body: `<!DOCTYPE svg [<!ENTITY j "javascript">]>${svgDoc(`<a id="l">${box}<set attributeName="href" to="&j;:${ran}"/></a>`)}`,
    then: '#l',
  },
  {
    name: 'a set whose value opens with white space',
    served: 'image/svg+xml',
    body: svgDoc(`<a id="l">${box}<set attributeName="href" to=" &#9;javascript:${ran}"/></a>`),
    then: '#l',
  },
  {
    name: 'an animate from a fragment to javascript:',
    served: 'image/svg+xml',
    body: svgDoc(
      `<a id="l">${box}<animate attributeName="href" from="#a" to="javascript:${ran}" dur="0.001s" fill="freeze"/></a>`,
    ),
    then: '#l',
  },
  {
    name: 'an animate with javascript: second in its values',
    served: 'image/svg+xml',
    body: svgDoc(
      `<a id="l">${box}<animate attributeName="href" values="#a;javascript:${ran}" dur="0.002s" fill="freeze"/></a>`,
    ),
    then: '#l',
  },
  {
    name: 'a set naming its link by href',
    served: 'image/svg+xml',
    body: svgDoc(`<a id="l">${box}</a><set href="#l" attributeName="href" to="javascript:${ran}"/>`),
    then: '#l',
  },
  {
    name: 'a set naming its link by xlink:href',
    served: 'image/svg+xml',
    body: svgDoc(
      `<a id="l">${box}</a><set xlink:href="#l" attributeName="xlink:href" to="javascript:${ran}"/>`,
      ` ${xl}`,
    ),
    then: '#l',
  },
  {
    name: 'a MathML href in foreignObject',
    served: 'image/svg+xml',
    body: svgDoc(
      `<foreignObject width="100" height="100"><math xmlns="${mathNs}" href="javascript:${ran}"><mtext id="l">click me please</mtext></math></foreignObject>`,
    ),
    then: '#l',
  },
];

/** XML documents Firefox renders live (as XHTML, SVG, MathML, or through XSLT). */
export const firefoxXmlAttacks: FirefoxCase[] = [
  {
    name: 'xslt that turns an xml report into a page with a script',
    served: 'application/xml',
    body: '<?xml version="1.0"?><?xml-stylesheet type="text/xsl" href="/t.xsl"?><report><item>1</item></report>',
    files: { '/t.xsl': ['text/xsl', xsltHtml] },
  },
  {
    name: 'an xhtml document with a script',
    served: 'application/xhtml+xml',
    body: `<html xmlns="${xhtmlNs}"><body><script>${ran}</script></body></html>`,
  },
  {
    name: 'an xml document that is an svg with onload',
    served: 'application/xml',
    body: `<svg xmlns="${svgNs}" onload="${ran}"/>`,
  },
  {
    name: 'an xml document holding an xhtml img onerror',
    served: 'text/xml',
    body: `<doc><img xmlns="${xhtmlNs}" src="x" onerror="${ran}"/></doc>`,
  },
  {
    name: 'a MathML document with an href',
    served: 'application/mathml+xml',
    body: `<math xmlns="${mathNs}" href="javascript:${ran}"><mtext id="l">click me please</mtext></math>`,
    then: '#l',
  },
];

/** Every plausible sending of an XML document. */
export const xmlSendings: Sending[] = sendingsOf(
  'guide://data/report',
  ['.xml', '.xhtml', '.svg', '.mml', ''],
  ['application/xml', 'text/xml', 'application/xhtml+xml', 'text/plain', 'application/octet-stream', undefined],
);

/** Benign SVG documents Firefox loads inert, in what drawing tools and icon sets write. */
export const firefoxSvgControls: FirefoxCase[] = [
  {
    name: 'a css xml-stylesheet on the same origin',
    served: 'image/svg+xml',
    body: `<?xml-stylesheet type="text/css" href="theme.css"?>${svgDoc(box)}`,
    files: { '/theme.css': ['text/css', 'rect { fill: teal }'] },
  },
  {
    name: 'a web link',
    served: 'image/svg+xml',
    body: svgDoc('<a href="https://example.com/docs"><text x="5" y="20">docs</text></a>'),
  },
  {
    name: 'an xlink fragment link',
    served: 'image/svg+xml',
    body: svgDoc('<a xlink:href="#section-2"><text x="5" y="20">docs</text></a>', ` ${xl}`),
  },
  {
    name: 'a draw.io foreignObject label',
    served: 'image/svg+xml',
    body: svgDoc(
      `<switch><foreignObject width="120" height="60" requiredFeatures="http://www.w3.org/TR/SVG11/feature#Extensibility"><div xmlns="${xhtmlNs}" style="display:flex;font-size:12px"><div><b>Server</b> &amp; client</div></div></foreignObject><text x="5" y="20">Server</text></switch>`,
    ),
  },
  {
    name: 'a MathML formula in foreignObject',
    served: 'image/svg+xml',
    body: svgDoc(
      `<foreignObject width="100" height="60"><math xmlns="${mathNs}"><mfrac><mi>a</mi><mi>b</mi></mfrac></math></foreignObject>`,
    ),
  },
  {
    name: 'a description naming a script tag',
    served: 'image/svg+xml',
    body: svgDoc('<desc>Use &lt;script&gt; tags with care: onload="x"</desc><rect width="5" height="5"/>'),
  },
  {
    name: 'filters, masks, markers and patterns',
    served: 'image/svg+xml',
    body: svgDoc(
      '<defs><filter id="f"><feGaussianBlur stdDeviation="2"/></filter><mask id="m"><rect width="50" height="50" fill="white"/></mask><marker id="a" markerWidth="5" markerHeight="5"><path d="M0 0L5 2.5L0 5z"/></marker><pattern id="p" width="4" height="4" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1"/></pattern></defs><line x1="0" y1="0" x2="40" y2="40" stroke="black" marker-end="url(#a)"/><rect width="20" height="20" fill="url(#p)" filter="url(#f)" mask="url(#m)"/>',
    ),
  },
  {
    name: 'a font from a data: url',
    served: 'image/svg+xml',
    body: svgDoc(
      '<style>@font-face { font-family: x; src: url(data:font/woff2;base64,AAAA) } text { font-family: x }</style><text y="10">x</text>',
    ),
  },
  {
    name: 'a rotating, then hidden, shape',
    served: 'image/svg+xml',
    body: svgDoc(
      '<rect width="5" height="5"><animateTransform attributeName="transform" type="rotate" from="0 5 5" to="360 5 5" dur="2s" repeatCount="indefinite"/><set attributeName="visibility" to="hidden" begin="1s"/></rect>',
    ),
  },
];

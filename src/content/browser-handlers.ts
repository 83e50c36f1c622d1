// The event-handler attribute names a browser runs. A page's own markup is judged with any `on…` name as a handler
// (a browser may add one), but bytes that are not text (an image's pixels read as a page) spell `on…=` by chance
// every few megabytes, and a name no browser knows runs nothing: `<p onv=x>` is an inert attribute. So binary read as
// HTML counts a handler under a name a browser runs: Chromium's (every `on*` of its window and interfaces, read from
// Chromium by test/content/consumers/image-polyglot.test.ts), Firefox's, Safari's and old Internet Explorer's (the
// sniffing host the image polyglot attacks were made for), and any `on…` name of `handlerNameAnyLength` characters or
// more: a handler a browser adds later is counted too unless its name is as short as the old ones, and random bytes
// spell so long a name once in tens of thousands of megabytes.

/** Characters from which any name of `on` and ASCII letters counts as a handler, known or not. */
export const handlerNameAnyLength = 8;

// names shorter than `handlerNameAnyLength` must be listed to count; the longer ones are listed for the record
const names = `
onabort onactivate onactive onaddsourcebuffer onaddstream onaddtrack onafterprint onafterscriptexecute onafterupdate
onanimationcancel onanimationend onanimationiteration onanimationstart onappinstalled onaudioend onaudioprocess
onaudiostart onauxclick onbeforeactivate onbeforecopy onbeforecut onbeforedeactivate onbeforeeditfocus onbeforeinput
onbeforeinstallprompt onbeforeload onbeforematch onbeforepaste onbeforeprint onbeforescriptexecute onbeforetoggle
onbeforeunload onbeforeupdate onbeforexrselect onbegin onbeginevent onblocked onblur onbounce onboundary
onbufferedamountlow oncancel oncanplay oncanplaythrough oncapturehandlechange oncellchange onchange
oncharacterboundsupdate onclick onclose onclosing oncommand oncomplete oncompositionend oncompositionstart
oncompositionupdate onconnect onconnecting onconnectionstatechange oncontentvisibilityautostatechange oncontextlost
oncontextmenu oncontextrestored oncontrolselect oncopy oncuechange oncurrententrychange oncut ondataavailable
ondatachannel ondatasetchanged ondatasetcomplete ondblclick ondeactivate ondevicelight ondevicemotion
ondeviceorientation ondeviceorientationabsolute ondeviceproximity ondisconnect ondispose ondrag ondragend ondragenter
ondragexit ondragleave ondragover ondragstart ondrop ondurationchange onemptied onencrypted onend onended onendevent
onenter onenterpictureinpicture onerror onerrorupdate onexit onfilterchange onfinish onfocus onfocusin onfocusout
onformdata onfreeze onfullscreenchange onfullscreenerror ongamepadconnected ongamepaddisconnected
ongatheringstatechange ongesturechange ongestureend ongesturestart ongeometrychange ongotpointercapture onhashchange
onhelp onicecandidate onicecandidateerror oniceconnectionstatechange onicegatheringstatechange oninactive oninput
oninvalid onkeydown onkeypress onkeyup onlanguagechange onlayoutcomplete onleavepictureinpicture onload onloadeddata
onloadedmetadata onloadend onloading onloadingdone onloadingerror onloadstart onlocation onlosecapture
onlostpointercapture onmark onmessage onmessageerror onmousedown onmouseenter onmouseleave onmousemove onmouseout
onmouseover onmouseup onmousewheel onmove onmoveend onmovestart onmozfullscreenchange onmozfullscreenerror
onmozpointerlockchange onmozpointerlockerror onmute onnavigate onnavigateerror onnavigatesuccess onnegotiationneeded
onnomatch onoffline ononline onopen onorientationchange onpagehide onpagereveal onpageshow onpageswap onpaste onpause
onplay onplaying onpointercancel onpointerdown onpointerenter onpointerleave onpointerlockchange onpointerlockerror
onpointermove onpointerout onpointerover onpointerrawupdate onpointerup onpopstate onprerenderingchange
onprioritychange onprocessorerror onprogress onpromptaction onpromptdismiss onpropertychange onratechange
onreadystatechange onrejectionhandled onremove onremovesourcebuffer onremovestream onremovetrack onrepeat
onrepeatevent onreset onresize onresizeend onresizestart onresourcetimingbufferfull onresult onresume onrowenter
onrowexit onrowsdelete onrowsinserted onscroll onscrollend onscrollsnapchange onscrollsnapchanging onsearch
onsecuritypolicyviolation onseeked onseeking onselect onselectedcandidatepairchange onselectionchange onselectstart
onshow onsignalingstatechange onslotchange onsoundend onsoundstart onsourceclose onsourceended onsourceopen
onspeechend onspeechstart onstalled onstart onstatechange onstop onstorage onstream onsubmit onsuccess onsuspend
ontextformatupdate ontextupdate ontimeout ontimeupdate ontoggle ontonechange ontouchcancel ontouchend
ontouchforcechange ontouchmove ontouchstart ontrack ontransitioncancel ontransitionend ontransitionrun
ontransitionstart onunhandledrejection onunload onunmute onupdate onupdateend onupdatestart onupgradeneeded
onuserproximity onvalidationstatuschange onversionchange onvisibilitychange onvoiceschanged onvolumechange onwaiting
onwaitingforkey onwebkitanimationend onwebkitanimationiteration onwebkitanimationstart onwebkitbeginfullscreen
onwebkitcurrentplaybacktargetiswirelesschanged onwebkitendfullscreen onwebkitfullscreenchange onwebkitfullscreenerror
onwebkitkeyadded onwebkitkeyerror onwebkitkeymessage onwebkitmouseforcechanged onwebkitmouseforcedown
onwebkitmouseforceup onwebkitmouseforcewillbegin onwebkitneedkey onwebkitplaybacktargetavailabilitychanged
onwebkitpresentationmodechanged onwebkittransitionend onwheel onzoom
`;

const knownHandlers: ReadonlySet<string> = new Set(names.split(/\s+/).filter((n) => n !== ''));

/** True when a browser runs an attribute of this lower-case name as an event handler: a listed name, or `on` and ASCII letters of `handlerNameAnyLength` characters or more. */
export function runsAsHandler(name: string): boolean {
  if (knownHandlers.has(name)) return true;
  return name.length >= handlerNameAnyLength && /^on[a-z]+$/.test(name);
}

// Terminals: hosts print tool results and the bodies they read to a terminal (a CLI agent's transcript, a log
// tailed in a shell), where an escape sequence or a control character acts: it moves the cursor to write over what
// was shown, sets the window title, writes the clipboard (OSC 52), makes a hyperlink (OSC 8), or has the terminal
// answer into its own input (ENQ, DECID). The one scan of a text body's characters (text/unsafe-utf8.ts) finds them;
// this consumer is what makes them a finding, so a policy for hosts that never print a body to a terminal leaves it out.
import type { ContentConsumer } from './content-consumer.ts';

/** Terminals: escape sequences and the C1 and C0 controls a terminal acts on, in every text body. */
export const terminalConsumer = {
  id: 'terminal',
  optIn: false,
  coverage: [
    {
      consumer: 'terminals',
      reaches:
        'every body read as text (UTF-8, or UTF-16 decoded), whatever its declared type or name: a host may print any of them',
      judged:
        'ESC and what it opens (CSI, OSC, DCS, SOS, PM, APC sequences), the C1 controls xterm and VTE act on (RI, SS2, SS3, DCS, SOS, DECID, CSI, ST, OSC, PM, APC) and the C0 controls ENQ, BEL, BS, VT, FF, SO, SI, CAN and SUB: withheld as `content.unsafe-text` (partial)',
      notCovered:
        "controls spelled as escapes in source text (`\\x1b[31m`, `\\u001b`): characters, inert until a program prints what they make; the C1 and C0 controls terminals ignore (IND, NEL, SOH–EOT, ACK, DLE–ETB, EM, FS–US); binary bodies (not printed as text). NUL and Unicode TAG characters are withheld for every profile: they are not a terminal's",
    },
  ],
  leftOut:
    "text holding terminal escape sequences or the controls a terminal acts on is allowed (a host that never prints a body to a terminal: a bundle whose string literals hold ESC, such as pdf.js's worker); every other check stays",
  readsText: () => true,
  judgeText: (body) => body.terminalControls.map((message) => ({ slot: 'unsafe' as const, message })),
} as const satisfies ContentConsumer;

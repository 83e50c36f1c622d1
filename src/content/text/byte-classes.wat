;; The byte classifier in front of the exact UTF-8 scan (byte-classes.ts, unsafe-utf8.ts), 64 bytes at a time.
;; Source of byte-classes-wasm.ts: after an edit run `npx tsx scripts/gen-byte-classes.ts` (a test compares them).
;;
;; `scan(p, end, leads)` reads the 16-byte blocks from `p` to `end` and returns the first one holding a byte that may
;; start an unsafe character (or `end`): a C0 control other than TAB, LF and CR, a C1 control (C2 80–9F), a TAG
;; character (F3 A0 …), and when `leads` is 1F (not 0F) an invisible one too: U+061C (D8 9C), U+180E (E1 A0 8E),
;; U+FEFF (EF BB BF) or a bidi or zero-width character of U+200B–U+2069 (E2 80 8B–8F, E2 80 AA–AE, E2 81 A0–A9).
;; It may stop at a block holding none (the caller checks its
;; bytes exactly), never passes one holding one (test/content/text/byte-classes.test.ts). On its way it ORs the
;; classes of every byte it passes into the 16 bytes at 80, where the caller reads which marks occur.
;;
;; A byte's classes are lo[byte & 15] & hi[byte >> 4] (the tables at 0 and 16), bit by bit: 01 00–0F but TAB, LF
;; and CR; 02 10–1F; the leads 04 C2; 08 D8 and F3 (and D3, F8); 10 E1, E2 and EF; and the marks 20 `:` `<` `=`;
;; 40 `&`; 80 `[` `\`. A lead starts a character the caller looks for only with the right bytes after it: the next
;; byte keeps its bits by the tables at 32 and 48 (04: 80–9F; 08: 90, 9C, A0, AC; 10: 80, 81, 8B, A0, A1, AB, B0,
;; B1, BB), the byte after that keeps bit 10 by the table at 64 (80–8F, A0–BF): a superset of the sequences above.
;; Memory: the tables from 0 to 80, the classes seen at 80, the pair tables of `sites` from 96 to 160, the exact pair
;; tables and constants of its exact step from 160 to 368, zeros up to 512 (the byte before the bytes is read as no letter),
;; the bytes from 512 on, with 32 bytes after them that the module may read past the last block. Four blocks are classified before one test of them all (a test and a
;; branch per block cost as much as the classes); only a chunk of four holding a stopping class is looked at block by
;; block.
(module
  (memory (export "memory") 1)
  (data (i32.const 0)
    "\03\13\17\0b\03\03\43\03\0b\02\22\83\a3\22\03\13"
    "\01\02\40\20\00\80\00\00\00\00\00\00\04\08\10\08"
    "\1f\17\07\07\07\07\07\07\07\07\07\17\0f\07\07\07"
    "\03\03\03\03\03\03\03\03\17\0f\1b\13\03\03\03\03"
    "\ef\ef\ef\ef\ef\ef\ef\ef\ff\ef\ff\ff\ef\ef\ef\ef")
  (data (i32.const 96)
    "\88\0c\08\28\4c\18\0a\08\08\8c\8c\0c\89\8c\08\08"
    "\84\00\92\05\0c\0c\0c\6c\00\00\00\00\00\00\00\00"
    "\10\01\40\03\20\11\01\00\01\01\04\00\01\88\00\01"
    "\00\00\12\8c\03\11\03\61\00\00\00\00\00\00\00\00")
  ;; the exact pair tables of the exact step (W, E, V, G: low then high nibble), then its constants
  (data (i32.const 160)
    "\08\01\40\06\20\11\01\00\01\01\00\00\01\00\00\01"
    "\00\00\14\00\05\0a\05\62\00\00\00\00\00\00\00\00"
    "\00\00\00\20\40\18\04\00\00\00\00\00\03\00\00\00"
    "\00\00\1c\03\00\00\00\60\00\00\00\00\00\00\00\00"
    "\90\c2\c0\c0\c1\c0\c0\c0\c0\e4\e4\48\60\64\40\40"
    "\24\00\10\08\42\81\42\81\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\0f\00\00\f0\00\00"
    "\00\00\00\ff\00\00\00\00\00\00\00\00\00\00\00\00"
    "\20\20\20\20\20\20\20\20\20\20\20\20\20\20\20\20"
    "\61\61\61\61\61\61\61\61\61\61\61\61\61\61\61\61"
    "\1a\1a\1a\1a\1a\1a\1a\1a\1a\1a\1a\1a\1a\1a\1a\1a"
    "\3f\3f\3f\3f\3f\3f\3f\3f\3f\3f\3f\3f\3f\3f\3f\3f"
    "\0f\0f\0f\0f\0f\0f\0f\0f\0f\0f\0f\0f\0f\0f\0f\0f")
  (func (export "scan") (param $p i32) (param $end i32) (param $leads i32) (result i32)
    (local $v v128) (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128) (local $seen v128)
    (local $classLo v128) (local $classHi v128) (local $nibble v128) (local $stop v128)
    (local $t v128) (local $v1 v128) (local $controls v128)
    (local.set $classLo (v128.load (i32.const 0)))
    (local.set $classHi (v128.load (i32.const 16)))
    (local.set $seen (v128.load (i32.const 80)))
    (local.set $nibble (i8x16.splat (i32.const 0x0f)))
    (local.set $stop (i8x16.splat (local.get $leads)))
    (local.set $controls (i8x16.splat (i32.const 0x03)))
    (block $out
      ;; whole chunks of four blocks
      (loop $chunk
        (br_if $out (i32.gt_u (i32.add (local.get $p) (i32.const 64)) (local.get $end)))
        (local.set $v (v128.load offset=0 (local.get $p)))
        (local.set $c0 (v128.and
          (i8x16.swizzle (local.get $classLo) (v128.and (local.get $v) (local.get $nibble)))
          (i8x16.swizzle (local.get $classHi) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))))
        (local.set $v (v128.load offset=16 (local.get $p)))
        (local.set $c1 (v128.and
          (i8x16.swizzle (local.get $classLo) (v128.and (local.get $v) (local.get $nibble)))
          (i8x16.swizzle (local.get $classHi) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))))
        (local.set $v (v128.load offset=32 (local.get $p)))
        (local.set $c2 (v128.and
          (i8x16.swizzle (local.get $classLo) (v128.and (local.get $v) (local.get $nibble)))
          (i8x16.swizzle (local.get $classHi) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))))
        (local.set $v (v128.load offset=48 (local.get $p)))
        (local.set $c3 (v128.and
          (i8x16.swizzle (local.get $classLo) (v128.and (local.get $v) (local.get $nibble)))
          (i8x16.swizzle (local.get $classHi) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))))
        (local.set $seen (v128.or (local.get $seen)
          (v128.or (v128.or (local.get $c0) (local.get $c1)) (v128.or (local.get $c2) (local.get $c3)))))
        (if (v128.any_true (v128.and (local.get $stop)
              (v128.or (v128.or (local.get $c0) (local.get $c1)) (v128.or (local.get $c2) (local.get $c3)))))
          (then
            ;; each block's stop test is written out where it is asked (a call cost more than its work: V8 spilled and
            ;; reloaded the loop's vectors around each, and text whose em dashes, curly quotes or no-break spaces start
            ;; a lead class took twice as long): whether the block at `p`, of classes `c`, holds a control character
            ;; (classes 03), or a lead in `stop` that the two bytes after it keep
            (br_if $out (block $stopped (result i32)
              (local.set $t (v128.and (local.get $c0) (local.get $stop)))
              (drop (br_if $stopped (i32.const 0) (i32.eqz (v128.any_true (local.get $t)))))
              (drop (br_if $stopped (i32.const 1) (v128.any_true (v128.and (local.get $t) (local.get $controls)))))
              (local.set $v1 (v128.load offset=1 (local.get $p)))
              (v128.any_true
                (v128.and (local.get $t)
                  (v128.and
                    (v128.and
                      (i8x16.swizzle (v128.load (i32.const 32)) (v128.and (local.get $v1) (local.get $nibble)))
                      (i8x16.swizzle (v128.load (i32.const 48))
                        (v128.and (i16x8.shr_u (local.get $v1) (i32.const 4)) (local.get $nibble))))
                    (i8x16.swizzle (v128.load (i32.const 64))
                      (v128.and (i16x8.shr_u (v128.load offset=2 (local.get $p)) (i32.const 4)) (local.get $nibble))))))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (br_if $out (block $stopped (result i32)
              (local.set $t (v128.and (local.get $c1) (local.get $stop)))
              (drop (br_if $stopped (i32.const 0) (i32.eqz (v128.any_true (local.get $t)))))
              (drop (br_if $stopped (i32.const 1) (v128.any_true (v128.and (local.get $t) (local.get $controls)))))
              (local.set $v1 (v128.load offset=1 (local.get $p)))
              (v128.any_true
                (v128.and (local.get $t)
                  (v128.and
                    (v128.and
                      (i8x16.swizzle (v128.load (i32.const 32)) (v128.and (local.get $v1) (local.get $nibble)))
                      (i8x16.swizzle (v128.load (i32.const 48))
                        (v128.and (i16x8.shr_u (local.get $v1) (i32.const 4)) (local.get $nibble))))
                    (i8x16.swizzle (v128.load (i32.const 64))
                      (v128.and (i16x8.shr_u (v128.load offset=2 (local.get $p)) (i32.const 4)) (local.get $nibble))))))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (br_if $out (block $stopped (result i32)
              (local.set $t (v128.and (local.get $c2) (local.get $stop)))
              (drop (br_if $stopped (i32.const 0) (i32.eqz (v128.any_true (local.get $t)))))
              (drop (br_if $stopped (i32.const 1) (v128.any_true (v128.and (local.get $t) (local.get $controls)))))
              (local.set $v1 (v128.load offset=1 (local.get $p)))
              (v128.any_true
                (v128.and (local.get $t)
                  (v128.and
                    (v128.and
                      (i8x16.swizzle (v128.load (i32.const 32)) (v128.and (local.get $v1) (local.get $nibble)))
                      (i8x16.swizzle (v128.load (i32.const 48))
                        (v128.and (i16x8.shr_u (local.get $v1) (i32.const 4)) (local.get $nibble))))
                    (i8x16.swizzle (v128.load (i32.const 64))
                      (v128.and (i16x8.shr_u (v128.load offset=2 (local.get $p)) (i32.const 4)) (local.get $nibble))))))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (br_if $out (block $stopped (result i32)
              (local.set $t (v128.and (local.get $c3) (local.get $stop)))
              (drop (br_if $stopped (i32.const 0) (i32.eqz (v128.any_true (local.get $t)))))
              (drop (br_if $stopped (i32.const 1) (v128.any_true (v128.and (local.get $t) (local.get $controls)))))
              (local.set $v1 (v128.load offset=1 (local.get $p)))
              (v128.any_true
                (v128.and (local.get $t)
                  (v128.and
                    (v128.and
                      (i8x16.swizzle (v128.load (i32.const 32)) (v128.and (local.get $v1) (local.get $nibble)))
                      (i8x16.swizzle (v128.load (i32.const 48))
                        (v128.and (i16x8.shr_u (local.get $v1) (i32.const 4)) (local.get $nibble))))
                    (i8x16.swizzle (v128.load (i32.const 64))
                      (v128.and (i16x8.shr_u (v128.load offset=2 (local.get $p)) (i32.const 4)) (local.get $nibble))))))))
            (local.set $p (i32.sub (local.get $p) (i32.const 48)))))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (br $chunk)))
    ;; the blocks after the last whole chunk, one by one
    (block $done
      (loop $rest
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $c0 (v128.and
          (i8x16.swizzle (local.get $classLo) (v128.and (local.get $v) (local.get $nibble)))
          (i8x16.swizzle (local.get $classHi) (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))))
        (local.set $seen (v128.or (local.get $seen) (local.get $c0)))
        (br_if $done (block $stopped (result i32)
              (local.set $t (v128.and (local.get $c0) (local.get $stop)))
              (drop (br_if $stopped (i32.const 0) (i32.eqz (v128.any_true (local.get $t)))))
              (drop (br_if $stopped (i32.const 1) (v128.any_true (v128.and (local.get $t) (local.get $controls)))))
              (local.set $v1 (v128.load offset=1 (local.get $p)))
              (v128.any_true
                (v128.and (local.get $t)
                  (v128.and
                    (v128.and
                      (i8x16.swizzle (v128.load (i32.const 32)) (v128.and (local.get $v1) (local.get $nibble)))
                      (i8x16.swizzle (v128.load (i32.const 48))
                        (v128.and (i16x8.shr_u (local.get $v1) (i32.const 4)) (local.get $nibble))))
                    (i8x16.swizzle (v128.load (i32.const 64))
                      (v128.and (i16x8.shr_u (v128.load offset=2 (local.get $p)) (i32.const 4)) (local.get $nibble))))))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $rest)))
    (v128.store (i32.const 80) (local.get $seen))
    (local.get $p))

  ;; `sites(p, end, out)` reads the 16-byte blocks from `p` to `end` for the byte pairs the polyglot checks of binary
  ;; bodies start at (sites.ts): for each block holding one it stores the block's address and a mask of its lanes (bit
  ;; k: the pair starting at byte k) at `out`, eight bytes, and returns where the list ends. A lane is marked exactly
  ;; when its byte and the next one are one of: `<` and the first letter of a tag a sniffed page runs (s o e a h l i f,
  ;; either case), `&#` and `&c` (either case), `t` or `a` (either case), TAB, LF, CR or `;` before `:` (a scheme's last
  ;; letter, or what the url parser drops or a reference ends with after it), HTML white space (space, TAB, LF, FF, CR)
  ;; before `=`, an ASCII letter before `=` when the byte before it is an ASCII letter too, and the starts of the PDF
  ;; markers `%P` `%%` `st` `tr`. Two steps: the pair tables find the chunks of four blocks that may hold such a pair
  ;; (a superset: a byte's pair classes are sLo[b & 15] & sHi[b >> 4], tables at 96 and 112, nLo and nHi at 128 and
  ;; 144 for the byte after it, and a lane may hold a pair when the two share a bit), and only in a block the tables
  ;; mark (about one in 40 of random bytes) the exact step (below) compares the bytes themselves. The tables alone listed about twice
  ;; as many lanes (a `:` after `q` passed as one after `a`: each relation's table is a product of a low-nibble and a
  ;; high-nibble set), and every check that reads the list looked at each of them in the body. The byte before the
  ;; first block is read at `p - 1`: the caller keeps the byte before the bytes (at 511) zero, no letter. The caller
  ;; gives at most as many blocks as its list holds entries, and 80 zero bytes after the last one (the end rounded up to
  ;; a chunk, and the block after it).
  (func (export "sites") (param $p i32) (param $end i32) (param $out i32) (result i32)
    (local $v v128) (local $lo v128) (local $hi v128) (local $nibble v128) (local $mask i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) (local $s4 v128)
    (local $n0 v128) (local $n1 v128) (local $n2 v128) (local $n3 v128) (local $n4 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local $sLo v128) (local $sHi v128) (local $nLo v128) (local $nHi v128) (local $pm1 i32)
    (local $ev v128) (local $ew v128) (local $eu v128) (local $evLo v128) (local $evHi v128) (local $ewLo v128) (local $ewHi v128)
    (local.set $sLo (v128.load (i32.const 96)))
    (local.set $sHi (v128.load (i32.const 112)))
    (local.set $nLo (v128.load (i32.const 128)))
    (local.set $nHi (v128.load (i32.const 144)))
    (local.set $nibble (i8x16.splat (i32.const 0x0f)))
    ;; each block is read once: its nibbles give both its bytes' classes as the first of a pair (s) and as the byte
    ;; after one (n), and a block's next bytes are its n shifted by one lane with the next block's; the first block's
    ;; classes are made here, each later one's in the chunk before it
    (local.set $v (v128.load (local.get $p)))
    (local.set $lo (v128.and (local.get $v) (local.get $nibble)))
    (local.set $hi (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))
    (local.set $s0 (v128.and (i8x16.swizzle (local.get $sLo) (local.get $lo)) (i8x16.swizzle (local.get $sHi) (local.get $hi))))
    (local.set $n0 (v128.and (i8x16.swizzle (local.get $nLo) (local.get $lo)) (i8x16.swizzle (local.get $nHi) (local.get $hi))))
    ;; four blocks at a time, one test for them all; the caller rounds `end` up to a whole chunk (its bytes after the
    ;; last one are zero, which start no pair, and the block after it is read too)
    (block $done
      (loop $chunk
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $v (v128.load offset=16 (local.get $p)))
        (local.set $lo (v128.and (local.get $v) (local.get $nibble)))
        (local.set $hi (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))
        (local.set $s1 (v128.and (i8x16.swizzle (local.get $sLo) (local.get $lo)) (i8x16.swizzle (local.get $sHi) (local.get $hi))))
        (local.set $n1 (v128.and (i8x16.swizzle (local.get $nLo) (local.get $lo)) (i8x16.swizzle (local.get $nHi) (local.get $hi))))
        (local.set $v (v128.load offset=32 (local.get $p)))
        (local.set $lo (v128.and (local.get $v) (local.get $nibble)))
        (local.set $hi (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))
        (local.set $s2 (v128.and (i8x16.swizzle (local.get $sLo) (local.get $lo)) (i8x16.swizzle (local.get $sHi) (local.get $hi))))
        (local.set $n2 (v128.and (i8x16.swizzle (local.get $nLo) (local.get $lo)) (i8x16.swizzle (local.get $nHi) (local.get $hi))))
        (local.set $v (v128.load offset=48 (local.get $p)))
        (local.set $lo (v128.and (local.get $v) (local.get $nibble)))
        (local.set $hi (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))
        (local.set $s3 (v128.and (i8x16.swizzle (local.get $sLo) (local.get $lo)) (i8x16.swizzle (local.get $sHi) (local.get $hi))))
        (local.set $n3 (v128.and (i8x16.swizzle (local.get $nLo) (local.get $lo)) (i8x16.swizzle (local.get $nHi) (local.get $hi))))
        (local.set $v (v128.load offset=64 (local.get $p)))
        (local.set $lo (v128.and (local.get $v) (local.get $nibble)))
        (local.set $hi (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))
        (local.set $s4 (v128.and (i8x16.swizzle (local.get $sLo) (local.get $lo)) (i8x16.swizzle (local.get $sHi) (local.get $hi))))
        (local.set $n4 (v128.and (i8x16.swizzle (local.get $nLo) (local.get $lo)) (i8x16.swizzle (local.get $nHi) (local.get $hi))))
        (local.set $c0 (v128.and (local.get $s0) (i8x16.shuffle 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 (local.get $n0) (local.get $n1))))
        (local.set $c1 (v128.and (local.get $s1) (i8x16.shuffle 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 (local.get $n1) (local.get $n2))))
        (local.set $c2 (v128.and (local.get $s2) (i8x16.shuffle 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 (local.get $n2) (local.get $n3))))
        (local.set $c3 (v128.and (local.get $s3) (i8x16.shuffle 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 (local.get $n3) (local.get $n4))))
        (if (v128.any_true (v128.or (v128.or (local.get $c0) (local.get $c1)) (v128.or (local.get $c2) (local.get $c3))))
          (then
            (local.set $pm1 (i32.sub (local.get $p) (i32.const 1)))
            (if (v128.any_true (local.get $c0))
              (then
                (local.set $mask (block (result i32)
                  (local.set $ev (v128.load offset=0 (local.get $p)))
                  (local.set $ew (v128.load offset=1 (local.get $p)))
                  (local.set $eu (v128.load offset=0 (local.get $pm1)))
                  (local.set $evLo (v128.and (local.get $ev) (local.get $nibble)))
                  (local.set $evHi (v128.and (i16x8.shr_u (local.get $ev) (i32.const 4)) (local.get $nibble)))
                  (local.set $ewLo (v128.and (local.get $ew) (local.get $nibble)))
                  (local.set $ewHi (v128.and (i16x8.shr_u (local.get $ew) (i32.const 4)) (local.get $nibble)))
                  (i8x16.bitmask (i8x16.ne (v128.or
                    (v128.and
                      (v128.and (i8x16.swizzle (v128.load (i32.const 192)) (local.get $evLo)) (i8x16.swizzle (v128.load (i32.const 208)) (local.get $evHi)))
                      (v128.and (i8x16.swizzle (v128.load (i32.const 160)) (local.get $ewLo)) (i8x16.swizzle (v128.load (i32.const 176)) (local.get $ewHi))))
                    (v128.and
                      (v128.and
                        (v128.and (i8x16.swizzle (v128.load (i32.const 224)) (local.get $evLo)) (i8x16.swizzle (v128.load (i32.const 240)) (local.get $evHi)))
                        (v128.and (i8x16.swizzle (v128.load (i32.const 256)) (local.get $ewLo)) (i8x16.swizzle (v128.load (i32.const 272)) (local.get $ewHi))))
                      (v128.or (v128.load (i32.const 336))
                        (i8x16.lt_u
                          (i8x16.sub (v128.or (local.get $eu) (v128.load (i32.const 288))) (v128.load (i32.const 304)))
                          (v128.load (i32.const 320))))))
                    (v128.const i64x2 0 0)))))
                (if (local.get $mask)
                  (then
                    (i32.store (local.get $out) (local.get $p))
                    (i32.store offset=4 (local.get $out) (local.get $mask))
                    (local.set $out (i32.add (local.get $out) (i32.const 8)))))))
            (if (v128.any_true (local.get $c1))
              (then
                (local.set $mask (block (result i32)
                  (local.set $ev (v128.load offset=16 (local.get $p)))
                  (local.set $ew (v128.load offset=17 (local.get $p)))
                  (local.set $eu (v128.load offset=16 (local.get $pm1)))
                  (local.set $evLo (v128.and (local.get $ev) (local.get $nibble)))
                  (local.set $evHi (v128.and (i16x8.shr_u (local.get $ev) (i32.const 4)) (local.get $nibble)))
                  (local.set $ewLo (v128.and (local.get $ew) (local.get $nibble)))
                  (local.set $ewHi (v128.and (i16x8.shr_u (local.get $ew) (i32.const 4)) (local.get $nibble)))
                  (i8x16.bitmask (i8x16.ne (v128.or
                    (v128.and
                      (v128.and (i8x16.swizzle (v128.load (i32.const 192)) (local.get $evLo)) (i8x16.swizzle (v128.load (i32.const 208)) (local.get $evHi)))
                      (v128.and (i8x16.swizzle (v128.load (i32.const 160)) (local.get $ewLo)) (i8x16.swizzle (v128.load (i32.const 176)) (local.get $ewHi))))
                    (v128.and
                      (v128.and
                        (v128.and (i8x16.swizzle (v128.load (i32.const 224)) (local.get $evLo)) (i8x16.swizzle (v128.load (i32.const 240)) (local.get $evHi)))
                        (v128.and (i8x16.swizzle (v128.load (i32.const 256)) (local.get $ewLo)) (i8x16.swizzle (v128.load (i32.const 272)) (local.get $ewHi))))
                      (v128.or (v128.load (i32.const 336))
                        (i8x16.lt_u
                          (i8x16.sub (v128.or (local.get $eu) (v128.load (i32.const 288))) (v128.load (i32.const 304)))
                          (v128.load (i32.const 320))))))
                    (v128.const i64x2 0 0)))))
                (if (local.get $mask)
                  (then
                    (i32.store (local.get $out) (i32.add (local.get $p) (i32.const 16)))
                    (i32.store offset=4 (local.get $out) (local.get $mask))
                    (local.set $out (i32.add (local.get $out) (i32.const 8)))))))
            (if (v128.any_true (local.get $c2))
              (then
                (local.set $mask (block (result i32)
                  (local.set $ev (v128.load offset=32 (local.get $p)))
                  (local.set $ew (v128.load offset=33 (local.get $p)))
                  (local.set $eu (v128.load offset=32 (local.get $pm1)))
                  (local.set $evLo (v128.and (local.get $ev) (local.get $nibble)))
                  (local.set $evHi (v128.and (i16x8.shr_u (local.get $ev) (i32.const 4)) (local.get $nibble)))
                  (local.set $ewLo (v128.and (local.get $ew) (local.get $nibble)))
                  (local.set $ewHi (v128.and (i16x8.shr_u (local.get $ew) (i32.const 4)) (local.get $nibble)))
                  (i8x16.bitmask (i8x16.ne (v128.or
                    (v128.and
                      (v128.and (i8x16.swizzle (v128.load (i32.const 192)) (local.get $evLo)) (i8x16.swizzle (v128.load (i32.const 208)) (local.get $evHi)))
                      (v128.and (i8x16.swizzle (v128.load (i32.const 160)) (local.get $ewLo)) (i8x16.swizzle (v128.load (i32.const 176)) (local.get $ewHi))))
                    (v128.and
                      (v128.and
                        (v128.and (i8x16.swizzle (v128.load (i32.const 224)) (local.get $evLo)) (i8x16.swizzle (v128.load (i32.const 240)) (local.get $evHi)))
                        (v128.and (i8x16.swizzle (v128.load (i32.const 256)) (local.get $ewLo)) (i8x16.swizzle (v128.load (i32.const 272)) (local.get $ewHi))))
                      (v128.or (v128.load (i32.const 336))
                        (i8x16.lt_u
                          (i8x16.sub (v128.or (local.get $eu) (v128.load (i32.const 288))) (v128.load (i32.const 304)))
                          (v128.load (i32.const 320))))))
                    (v128.const i64x2 0 0)))))
                (if (local.get $mask)
                  (then
                    (i32.store (local.get $out) (i32.add (local.get $p) (i32.const 32)))
                    (i32.store offset=4 (local.get $out) (local.get $mask))
                    (local.set $out (i32.add (local.get $out) (i32.const 8)))))))
            (if (v128.any_true (local.get $c3))
              (then
                (local.set $mask (block (result i32)
                  (local.set $ev (v128.load offset=48 (local.get $p)))
                  (local.set $ew (v128.load offset=49 (local.get $p)))
                  (local.set $eu (v128.load offset=48 (local.get $pm1)))
                  (local.set $evLo (v128.and (local.get $ev) (local.get $nibble)))
                  (local.set $evHi (v128.and (i16x8.shr_u (local.get $ev) (i32.const 4)) (local.get $nibble)))
                  (local.set $ewLo (v128.and (local.get $ew) (local.get $nibble)))
                  (local.set $ewHi (v128.and (i16x8.shr_u (local.get $ew) (i32.const 4)) (local.get $nibble)))
                  (i8x16.bitmask (i8x16.ne (v128.or
                    (v128.and
                      (v128.and (i8x16.swizzle (v128.load (i32.const 192)) (local.get $evLo)) (i8x16.swizzle (v128.load (i32.const 208)) (local.get $evHi)))
                      (v128.and (i8x16.swizzle (v128.load (i32.const 160)) (local.get $ewLo)) (i8x16.swizzle (v128.load (i32.const 176)) (local.get $ewHi))))
                    (v128.and
                      (v128.and
                        (v128.and (i8x16.swizzle (v128.load (i32.const 224)) (local.get $evLo)) (i8x16.swizzle (v128.load (i32.const 240)) (local.get $evHi)))
                        (v128.and (i8x16.swizzle (v128.load (i32.const 256)) (local.get $ewLo)) (i8x16.swizzle (v128.load (i32.const 272)) (local.get $ewHi))))
                      (v128.or (v128.load (i32.const 336))
                        (i8x16.lt_u
                          (i8x16.sub (v128.or (local.get $eu) (v128.load (i32.const 288))) (v128.load (i32.const 304)))
                          (v128.load (i32.const 320))))))
                    (v128.const i64x2 0 0)))))
                (if (local.get $mask)
                  (then
                    (i32.store (local.get $out) (i32.add (local.get $p) (i32.const 48)))
                    (i32.store offset=4 (local.get $out) (local.get $mask))
                    (local.set $out (i32.add (local.get $out) (i32.const 8)))))))))
        (local.set $s0 (local.get $s4))
        (local.set $n0 (local.get $n4))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (br $chunk)))
    (local.get $out))

  ;; The exact step, written out in each of the four branches of `sites` for the block at `p + 16k` (a call cost more
  ;; than its work: V8 spilled and reloaded eight vectors around each, and the pass over random bytes took 0.91-0.94 of
  ;; the time without it): the lanes of the block whose byte and the next one are exactly one of the pairs `sites`
  ;; lists (above), as a mask (bit k: the pair starting at byte k). Each pair has one side that is a single byte and
  ;; one that is a set, and each set is a union of products of a high-nibble and a low-nibble set, each product given a
  ;; bit of its own, so that a lookup by nibbles (a byte's bits are lo[b & 15] & hi[b >> 4]) is exact, as the one-bit-
  ;; per-relation pair tables are not. Plane A, the pairs a single first byte starts (`<` `&` `%` `s` `t`): E (tables
  ;; at 192, 208) gives a first byte the bits of the second bytes it pairs with, W (160, 176) a second byte its own
  ;; bits. Plane B, the pairs a single second byte ends (`:` `=`): G (256, 272) gives a second byte the bits of the
  ;; first bytes it pairs with, V (224, 240) a first byte its own; V's two letter bits (40, 80) hold only when the byte
  ;; before is a letter too. W: 01 `a e f h i l o` and upper case, 02 `s S`, 04 `# c C`, 08 `P`, 10 `%`, 20 `t`, 40
  ;; `r`. V: 01 `t T`, 02 `a A`, 04 TAB LF CR, 08 `;`, 10 space, 20 TAB LF FF CR, 40 and 80 the ASCII letters.
)

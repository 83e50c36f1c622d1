;; The byte classifier in front of the exact UTF-8 scan (byte-classes.ts, unsafe-utf8.ts), 16 bytes at a time.
;; Source of byte-classes-wasm.ts: after an edit run `npx tsx scripts/gen-byte-classes.ts` (a test compares them).
;;
;; `scan(p, end)` reads the 16-byte blocks from `p` to `end` and returns the first one holding a byte that may make
;; an unsafe or invisible finding (or `end`): a C0 control other than TAB, LF and CR, or the lead of a C1 control
;; (C2 80–9F), a TAG character (F3 A0), U+061C (D8 9C), U+180E (E1 A0), U+FEFF (EF BB) or a bidi or zero-width
;; character of U+200B–U+2069 (E2 80 8B–8F, E2 80 AA–AE, E2 81 A0–A9). It may stop at a block holding none (the
;; caller checks each byte of it exactly), never passes one holding one. On its way it ORs the classes of every
;; byte it passes into the 16 bytes at 64, where the caller reads which marks occur.
;;
;; A byte's classes are lo[byte & 15] & hi[byte >> 4] (the tables at 0 and 16), bit by bit: 01 00–0F but TAB, LF
;; and CR; 02 10–1F; 04 C2; 08 D8 and F3 (and D3, F8); 10 E1, E2 and EF; and the marks 20 `:` `<` `=`; 40 `&`;
;; 80 `[` `\`. Memory: the tables at 0 and 16, the classes seen at 64, the bytes from 128 on, with 32 bytes after
;; them that the module may read past the last block.
(module
  (memory (export "memory") 1)
  (data (i32.const 0)
    "\03\13\17\0b\03\03\43\03\0b\02\22\83\a3\22\03\13"
    "\01\02\40\20\00\80\00\00\00\00\00\00\04\08\10\08")
  (func (export "scan") (param $p i32) (param $end i32) (result i32)
    (local $v v128) (local $c v128) (local $seen v128) (local $tableLo v128) (local $tableHi v128)
    (local $nibble v128) (local $stop v128) (local $v1 v128) (local $v2 v128) (local $e2 v128)
    (local.set $tableLo (v128.load (i32.const 0)))
    (local.set $tableHi (v128.load (i32.const 16)))
    (local.set $seen (v128.load (i32.const 64)))
    (local.set $nibble (i8x16.splat (i32.const 0x0f)))
    (local.set $stop (i8x16.splat (i32.const 0x1f)))
    (block $out
      (loop $next
        (br_if $out (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $c
          (v128.and
            (i8x16.swizzle (local.get $tableLo) (v128.and (local.get $v) (local.get $nibble)))
            (i8x16.swizzle (local.get $tableHi)
              (v128.and (i16x8.shr_u (local.get $v) (i32.const 4)) (local.get $nibble)))))
        (local.set $seen (v128.or (local.get $seen) (local.get $c)))
        (if (v128.any_true (v128.and (local.get $c) (local.get $stop)))
          (then
            ;; a control character stops the scan
            (br_if $out (v128.any_true (v128.and (local.get $c) (i8x16.splat (i32.const 0x03)))))
            ;; a lead stops it only where the bytes after it may make a finding
            (local.set $v1 (v128.load offset=1 (local.get $p)))
            (local.set $v2 (v128.load offset=2 (local.get $p)))
            ;; C2 then below A0: a C1 control
            (local.set $c
              (v128.and (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0xc2)))
                        (i8x16.lt_u (local.get $v1) (i8x16.splat (i32.const 0xa0)))))
            ;; F3 A0 or E1 A0: a TAG character, U+180E
            (local.set $c (v128.or (local.get $c)
              (v128.and
                (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0xf3)))
                         (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0xe1))))
                (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 0xa0))))))
            ;; D8 9C: U+061C
            (local.set $c (v128.or (local.get $c)
              (v128.and (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0xd8)))
                        (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 0x9c))))))
            ;; EF BB: U+FEFF
            (local.set $c (v128.or (local.get $c)
              (v128.and (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0xef)))
                        (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 0xbb))))))
            ;; E2 80 8B–8F, E2 80 AA–AE, E2 81 A0–A9 (a wrapping subtraction, then an unsigned compare)
            (local.set $e2
              (v128.or
                (v128.and (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 0x80)))
                  (v128.or
                    (i8x16.lt_u (i8x16.sub (local.get $v2) (i8x16.splat (i32.const 0x8b))) (i8x16.splat (i32.const 5)))
                    (i8x16.lt_u (i8x16.sub (local.get $v2) (i8x16.splat (i32.const 0xaa))) (i8x16.splat (i32.const 5)))))
                (v128.and (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 0x81)))
                  (i8x16.lt_u (i8x16.sub (local.get $v2) (i8x16.splat (i32.const 0xa0))) (i8x16.splat (i32.const 10))))))
            (local.set $c (v128.or (local.get $c)
              (v128.and (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0xe2))) (local.get $e2))))
            (br_if $out (v128.any_true (local.get $c)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $next)))
    (v128.store (i32.const 64) (local.get $seen))
    (local.get $p)))

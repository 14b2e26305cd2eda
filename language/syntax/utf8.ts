// Reading a file's bytes as Terraform does. Terraform 1.11 accepts a *.tf.json that is not valid
// UTF-8 without a word and reads each byte that is not part of a valid sequence as U+FFFD (what
// Go's UTF-8 decoding does): a name or value holding one is what Terraform then checks and
// uses. We decode the same way, so that lengths, names and messages agree with Terraform's, and
// say where it happened (module.ts reports it as a warning: the file is not what its author
// meant, though Terraform raises no error).
import { isUtf8 } from "node:buffer";

export interface DecodedText {
  text: string;
  /** offsets in `text` of the U+FFFD characters that stand for invalid bytes */
  replaced: number[];
}

/** Length of the valid UTF-8 sequence at bytes[i], 0 when none starts there (Unicode table 3-7). */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < bytes.length && bytes[i + k]! >= lo && bytes[i + k]! <= hi;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0; // no surrogates
  if (b === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

export function decodeUtf8(bytes: Buffer): DecodedText {
  // the usual case is answered by one native check
  if (isUtf8(bytes)) return { text: bytes.toString("utf8"), replaced: [] };
  const parts: string[] = [];
  const replaced: number[] = [];
  let length = 0;
  let run = 0;
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    const valid = bytes.toString("utf8", run, i);
    parts.push(valid, "\ufffd");
    length += valid.length;
    replaced.push(length);
    length++;
    i++;
    run = i;
  }
  parts.push(bytes.toString("utf8", run, i));
  return { text: parts.join(""), replaced };
}

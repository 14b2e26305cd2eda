// textencodebase64 / textdecodebase64 on known arguments, as Terraform 1.11 judges them: the
// encoding must be an IANA name or alias of a character set Terraform supports (looked up without
// case or surrounding spaces), the source must be standard padded base64, and the text must fit the
// character set. Terraform refuses a decoded text that holds U+FFFD (a byte sequence the set does
// not define): that is judged for the Unicode sets, US-ASCII and Latin-1; other sets' tables, and
// what they cannot encode, are left to Terraform.
import { badArgument } from "./known.js";

/** Each supported set's canonical IANA name (Terraform's messages use it), then its aliases; checked against terraform validate. */
const SETS = [
  "US-ASCII ANSI_X3.4-1968 iso-ir-6 ANSI_X3.4-1986 ISO_646.irv:1991 ISO646-US us IBM367 cp367 csASCII",
  "UTF-8 csUTF8",
  "UTF-16 csUTF16",
  "UTF-16BE csUTF16BE",
  "UTF-16LE csUTF16LE",
  "ISO_8859-1:1987 iso-ir-100 ISO_8859-1 ISO-8859-1 latin1 l1 IBM819 CP819 csISOLatin1",
  "ISO_8859-2:1987 iso-ir-101 ISO_8859-2 ISO-8859-2 latin2 l2 csISOLatin2",
  "ISO_8859-3:1988 iso-ir-109 ISO_8859-3 ISO-8859-3 latin3 l3 csISOLatin3",
  "ISO_8859-4:1988 iso-ir-110 ISO_8859-4 ISO-8859-4 latin4 l4 csISOLatin4",
  "ISO_8859-5:1988 iso-ir-144 ISO_8859-5 ISO-8859-5 cyrillic csISOLatinCyrillic",
  "ISO_8859-6:1987 iso-ir-127 ISO_8859-6 ISO-8859-6 ECMA-114 ASMO-708 arabic csISOLatinArabic",
  "ISO_8859-7:1987 iso-ir-126 ISO_8859-7 ISO-8859-7 ELOT_928 ECMA-118 greek greek8 csISOLatinGreek",
  "ISO_8859-8:1988 iso-ir-138 ISO_8859-8 ISO-8859-8 hebrew csISOLatinHebrew",
  "ISO_8859-9:1989 iso-ir-148 ISO_8859-9 ISO-8859-9 latin5 l5 csISOLatin5",
  "ISO-8859-10 iso-ir-157 l6 ISO_8859-10:1992 csISOLatin6 latin6",
  "ISO-8859-13 csISO885913",
  "ISO-8859-14 iso-ir-199 ISO_8859-14:1998 ISO_8859-14 latin8 iso-celtic l8 csISO885914",
  "ISO-8859-15 ISO_8859-15 Latin-9 csISO885915",
  "ISO-8859-16 iso-ir-226 ISO_8859-16:2001 ISO_8859-16 latin10 l10 csISO885916",
  "ISO_8859-6-E csISO88596E ISO-8859-6-E",
  "ISO_8859-6-I csISO88596I ISO-8859-6-I",
  "ISO_8859-8-E csISO88598E ISO-8859-8-E",
  "ISO_8859-8-I csISO88598I ISO-8859-8-I",
  "KOI8-R csKOI8R",
  "KOI8-U csKOI8U",
  "macintosh mac csMacintosh",
  "IBM037 cp037 ebcdic-cp-us ebcdic-cp-ca ebcdic-cp-wt ebcdic-cp-nl csIBM037",
  "IBM437 cp437 437 csPC8CodePage437",
  "IBM850 cp850 850 csPC850Multilingual",
  "IBM852 cp852 852 csPCp852",
  "IBM855 cp855 855 csIBM855",
  "IBM00858 CCSID00858 CP00858 PC-Multilingual-850+euro csIBM00858",
  "IBM860 cp860 860 csIBM860",
  "IBM862 cp862 862 csPC862LatinHebrew",
  "IBM863 cp863 863 csIBM863",
  "IBM865 cp865 865 csIBM865",
  "IBM866 cp866 866 csIBM866",
  "IBM1047 IBM-1047 csIBM1047",
  "IBM01140 CCSID01140 CP01140 ebcdic-us-37+euro csIBM01140",
  "windows-874 cswindows874",
  ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => `windows-125${n} cswindows125${n}`),
  "Shift_JIS MS_Kanji csShiftJIS",
  "EUC-JP Extended_UNIX_Code_Packed_Format_for_Japanese csEUCPkdFmtJapanese",
  "ISO-2022-JP csISO2022JP",
  "EUC-KR csEUCKR",
  "GBK CP936 MS936 windows-936 csGBK",
  "GB18030 csGB18030",
  "HZ-GB-2312",
  "Big5 csBig5",
];

/** lower-cased alias → canonical name */
const CANONICAL = new Map<string, string>();
for (const set of SETS) {
  const names = set.split(" ");
  for (const n of names) CANONICAL.set(n.toLowerCase(), names[0]!);
}

/** The canonical name of a supported set, or the error Terraform gives for the "encoding" argument. */
function characterSet(name: string): string {
  const canonical = CANONICAL.get(name.trim().toLowerCase());
  if (canonical === undefined) badArgument("encoding", `${JSON.stringify(name)} is not a supported IANA encoding name or alias in this Terraform version`);
  return canonical!;
}

/** textencodebase64(string, encoding): the set must be supported and, for US-ASCII and Latin-1, hold every character. */
export function textencodebase64(text: string, encoding: string): void {
  const set = characterSet(encoding);
  const limit = set === "US-ASCII" ? 0x7f : set === "ISO_8859-1:1987" ? 0xff : Infinity;
  for (const ch of text) {
    if (ch.codePointAt(0)! > limit) badArgument("string", `the given string contains characters that cannot be represented in ${set}`);
  }
}

/** textdecodebase64(source, encoding): a supported set, standard base64, and bytes the set defines. */
export function textdecodebase64(source: string, encoding: string): void {
  const set = characterSet(encoding);
  const corrupt = base64Corruption(source);
  if (corrupt !== null) badArgument("source", `the given value is has an invalid base64 symbol at offset ${corrupt}`);
  const bytes = Buffer.from(source.replace(/[\r\n]/g, ""), "base64");
  const text = decoded(bytes, set);
  if (text !== null && text.includes("\ufffd")) badArgument("source", `the given string contains symbols that are not defined for ${set}`);
}

/** The text of bytes in a Unicode set, US-ASCII or Latin-1 (undefined bytes as U+FFFD); null for other sets. */
function decoded(bytes: Buffer, set: string): string | null {
  switch (set) {
    case "UTF-8":
      return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    case "UTF-16LE":
      return new TextDecoder("utf-16le", { ignoreBOM: true }).decode(bytes);
    case "UTF-16BE":
      return new TextDecoder("utf-16le", { ignoreBOM: true }).decode(swapped(bytes));
    case "UTF-16":
      // big-endian unless a byte order mark says otherwise
      if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le", { ignoreBOM: true }).decode(bytes.subarray(2));
      return new TextDecoder("utf-16le", { ignoreBOM: true }).decode(swapped(bytes[0] === 0xfe && bytes[1] === 0xff ? bytes.subarray(2) : bytes));
    case "US-ASCII":
      return bytes.some((b) => b > 0x7f) ? "\ufffd" : "";
    case "ISO_8859-1:1987":
      return "";
  }
  return null;
}

/** The bytes with each pair's order swapped (an odd last byte stays, and decodes as U+FFFD). */
function swapped(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 0; i + 1 < out.length; i += 2) {
    out[i] = bytes[i + 1]!;
    out[i + 1] = bytes[i]!;
  }
  return out;
}

const isBase64Symbol = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
const isLineBreak = (c: number) => c === 10 || c === 13;

/** Whether Go's standard base64 decoder reads the text. */
export function isBase64(s: string): boolean {
  return base64Corruption(s) === null;
}

/**
 * Where Go's standard base64 decoder (padding required, line breaks skipped) finds the input
 * corrupt, as the offset it reports; null when it decodes.
 */
function base64Corruption(s: string): number | null {
  let i = 0;
  for (;;) {
    let j = 0;
    for (; j < 4; j++) {
      if (i === s.length) {
        if (j === 0) return null;
        return i - j;
      }
      const c = s.charCodeAt(i++);
      if (isBase64Symbol(c)) continue;
      if (isLineBreak(c)) {
        j--;
        continue;
      }
      if (c !== 61 || j < 2) return i - 1;
      // padding: "==" after two symbols, "=" after three
      if (j === 2) {
        while (i < s.length && isLineBreak(s.charCodeAt(i))) i++;
        if (i === s.length) return s.length;
        if (s.charCodeAt(i) !== 61) return i - 1;
        i++;
      }
      while (i < s.length && isLineBreak(s.charCodeAt(i))) i++;
      return i < s.length ? i : null;
    }
  }
}

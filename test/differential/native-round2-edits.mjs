// The small edit language of round "native2": a case is a base with edits applied in turn. An
// edit that does not find what it changes throws, so a case never silently equals its base.
import { ROUND2_BASES } from "./native-round2-bases.mjs";

/** A copy of a base's files with the edits applied. */
export function on(base, ...edits) {
  let files = { ...ROUND2_BASES[base] };
  for (const edit of edits) files = edit(files);
  return files;
}

/** Replaces the first `from` in `file` with `to`. */
export const sub = (file, from, to) => (files) => {
  if (!(file in files) || !files[file].includes(from)) throw new Error(`native2 edit: ${JSON.stringify(from.slice(0, 40))} not in ${file}`);
  return { ...files, [file]: files[file].replace(from, () => to) };
};

/** Adds text after `after` in `file`. */
export const after = (file, anchor, text) => sub(file, anchor, anchor + text);

/** Appends text to a file (creating it). */
export const append = (file, text) => (files) => ({ ...files, [file]: (files[file] ?? "") + text });

/** Adds or replaces a file. */
export const put = (file, text) => (files) => ({ ...files, [file]: text });

/** Removes a file. */
export const drop = (file) => (files) => {
  if (!(file in files)) throw new Error(`native2 edit: no ${file} to drop`);
  const { [file]: _, ...rest } = files;
  return rest;
};

/** Rewrites every file the test selects (all .tf files by default). */
export const every = (fn, test = (name) => name.endsWith(".tf")) => (files) =>
  Object.fromEntries(Object.entries(files).map(([name, text]) => [name, test(name) ? fn(text) : text]));

/**
 * The element texts of a top-level JSON array, streamed: tracks only string/escape state and
 * nesting depth, so memory holds one element at a time whatever the file's size. Each element is
 * parsed by JSON.parse afterwards; this only finds where one ends.
 */
export async function* jsonArrayElements(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let started = false;
  let ended = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element = "";
  for await (const chunk of chunks) {
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (!started || ended) {
        if (c === "[" && !started) {
          started = true;
          from = i + 1;
        } else if (!/\s/.test(c ?? "")) {
          throw new Error(ended ? "text after the closing ]" : "the file does not start with a JSON array");
        }
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === "\\") escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === "{" || c === "[") depth++;
      else if ((c === "}" || c === "]") && depth > 0) depth--;
      else if (depth === 0 && (c === "," || c === "]")) {
        element += chunk.slice(from, i);
        if (element.trim() !== "") yield element;
        else if (c === ",") throw new Error("an empty element in the JSON array");
        element = "";
        from = i + 1;
        if (c === "]") ended = true;
      }
    }
    if (started && !ended) element += chunk.slice(from);
  }
  if (!ended) throw new Error("the JSON array is not closed");
}

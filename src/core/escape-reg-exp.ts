/** `text` as a literal inside a regular expression: its syntax characters escaped (valid with the `u` flag too). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

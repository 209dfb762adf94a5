// Typings for the CommonJS `@joplin/turndown-plugin-gfm` (it ships none). Each export is a
// Turndown plugin; `gfm` applies the four others.
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';

  type Plugin = (service: TurndownService) => void;
  const plugin: {
    gfm: Plugin;
    highlightedCodeBlock: Plugin;
    strikethrough: Plugin;
    tables: Plugin;
    taskListItems: Plugin;
  };
  export default plugin;
}

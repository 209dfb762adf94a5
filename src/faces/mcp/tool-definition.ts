/**
 * Tools are data: a name, a title, a description written for models, input and output
 * schemas (the HTTP request body and response object), annotations and a small handler
 * that calls a service.
 */
import type { z } from 'zod';
import type { IncomingRequest } from '../../core/request-context.js';

export interface ToolCallContext {
  /** The call as a request: its id (the result's `_meta.request_id`), caller, logger, and the client's cancellation. */
  request: IncomingRequest;
  /** Reports progress when the client asked for it (a progress token); no-op otherwise. */
  progress: (done: number, total: number, message?: string) => void;
}

export interface ToolLogLine {
  level: 'debug' | 'info' | 'notice' | 'warning' | 'error';
  message: string;
}

export interface ToolDefinition<In extends z.ZodType = z.ZodType, Out extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  inputSchema: In;
  outputSchema: Out;
  annotations: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  /**
   * Returns the response object, exactly what the HTTP API would answer. `args` as the
   * client sent them: Operations validates them against `inputSchema`'s twin, as it does
   * every face's input.
   */
  handler: (args: unknown, ctx: ToolCallContext) => Promise<z.infer<Out>>;
  /** Images to return as MCP image content after the text block (base64 data), when the tool has any. */
  images?: (result: z.infer<Out>) => { data: string; mimeType: string }[];
  /** Renders the response object as Markdown for clients without structured output; `args` as the client sent them (read-on calls repeat some). */
  renderText: (result: z.infer<Out>, args: unknown) => string;
  /** What the client's log (MCP `notifications/message`) should say about a result. */
  logLines: (result: z.infer<Out>) => ToolLogLine[];
  /** Cuts page contents fairly to fit the output budget (see output-budget.ts). */
  budget: (
    result: z.infer<Out>,
    budgetChars: number,
    render: (r: z.infer<Out>) => string,
  ) => { result: z.infer<Out>; cut: number };
}

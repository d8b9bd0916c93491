/**
 * OpenTelemetry options of a run (`chat()`'s and `createChatHandler`'s `telemetry`). Spans and
 * metrics go through `@opentelemetry/api` (an optional peer dependency) to whatever SDK the app
 * registered; with none registered, or without the package, a run is not observed at all.
 */
export interface TelemetryOptions {
  /** `false` turns spans and metrics off for these runs even when an SDK is registered. Defaults to `true`. */
  readonly enabled?: boolean;
  /**
   * Record what goes into the model and the tools: the request's messages and the system prompt on
   * the `invoke_agent` span (`gen_ai.input.messages`, `gen_ai.system_instructions`) and each call's
   * arguments (`gen_ai.tool.call.arguments`). They can hold personal data. Defaults to `false`.
   */
  readonly recordInputs?: boolean;
  /**
   * Record what comes out: each model call's text (`gen_ai.output.messages`) and each tool call's
   * result (`gen_ai.tool.call.result`). They can hold personal data. Defaults to `false`.
   */
  readonly recordOutputs?: boolean;
  /** `gen_ai.agent.name` of the run span (its name is `invoke_agent <agentName>`). Defaults to `chatwire`. */
  readonly agentName?: string;
}

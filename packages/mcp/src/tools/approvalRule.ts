/** The hints an MCP server gives about a tool (`ToolAnnotations`); all optional. */
export interface McpToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What an app's approval policy is asked about. */
export interface McpApprovalQuestion {
  /** The server's name in the configuration. */
  readonly server: string;
  /** Whether the configuration marks the server `trusted`. */
  readonly trusted: boolean;
  /** The tool's name on its server. */
  readonly tool: string;
  /** The name the model calls. */
  readonly exposedName: string;
  /** The server's hints, unverified. */
  readonly annotations: McpToolAnnotations;
  /** What the annotation rule alone decides ({@link approvalFromAnnotations}). */
  readonly byAnnotations: boolean;
}

/** An app's approval policy: `true` asks the user, `false` does not, `undefined` keeps the annotation rule. */
export type McpApprovalPolicy = (question: McpApprovalQuestion) => boolean | undefined;

/**
 * The annotation rule: a tool of an untrusted server asks for approval when it may be destructive
 * or reaches an open world, unless it says it is read-only. Absent hints read at the MCP spec's
 * defaults (`destructiveHint` and `openWorldHint` true, `readOnlyHint` false), so a server that says
 * nothing is asked about. A trusted server's tools do not ask.
 */
export function approvalFromAnnotations(annotations: McpToolAnnotations, trusted: boolean): boolean {
  if (trusted) return false;
  if (annotations.readOnlyHint === true) return false;
  return annotations.destructiveHint !== false || annotations.openWorldHint !== false;
}

/** The app's policy where it decides, else the annotation rule. A policy that throws asks (fail closed). */
export function decideApproval(question: Omit<McpApprovalQuestion, 'byAnnotations'>, policy: McpApprovalPolicy | undefined): boolean {
  const byAnnotations = approvalFromAnnotations(question.annotations, question.trusted);
  if (!policy) return byAnnotations;
  try {
    const decided = policy({ ...question, byAnnotations });
    return decided === undefined ? byAnnotations : decided === true;
  } catch {
    return true;
  }
}

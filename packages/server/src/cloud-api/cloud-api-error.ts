/**
 * A refusal in the API's own terms: answered (HTTP 200, as the API does) as
 * `{"Response": {"Error": {"Code", "Message"}, "RequestId"}}`.
 */
export class CloudApiError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'CloudApiError';
  }
}

/** A required parameter is missing: `MissingParameter.<Name>` (the API's per-field code). */
export function missing(name: string): CloudApiError {
  return new CloudApiError(`MissingParameter.${name}`, `the parameter ${name} is required`);
}

/** A parameter has the wrong type or value: `InvalidParameter.<Name>`. */
export function invalid(name: string, why: string): CloudApiError {
  return new CloudApiError(`InvalidParameter.${name}`, `the parameter ${name} ${why}`);
}

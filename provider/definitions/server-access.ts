// With an `endpoint`, a provider checks once, when Terraform configures it, that the platform
// server answers and accepts its credentials for its project: a wrong endpoint, a server that is
// down or credentials for another project then fail `plan` at the provider block, instead of
// failing the apply after other resources were created.
import { HandlerError } from "../framework/types.js";

export interface AccessCheck {
  endpoint: string;
  project: string;
  /** which settings to name in the message, e.g. "access_token (or TSDB_ACCESS_TOKEN)" */
  credentialSettings: string;
  endpointSetting: string;
  /** a cheap authenticated, project-scoped request */
  probe: () => Promise<unknown>;
}

export async function checkServerAccess(check: AccessCheck): Promise<void> {
  try {
    await check.probe();
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = error instanceof Error ? error.message : String(error);
    if (code === "unauthenticated") {
      throw new HandlerError("The platform server refused the credentials", {
        detail:
          `The platform server at ${check.endpoint} does not accept these credentials for project ${check.project}. ` +
          `Check ${check.credentialSettings}, and that they were created for this project ('schemaform platform credentials create --project ${check.project}').`,
      });
    }
    if (error instanceof Error && error.name === "PlatformError") return; // any other answer means the server is there and accepts us
    const tls = TLS_TRUST_ERRORS.exec(reason)?.[0];
    if (tls !== undefined) {
      throw new HandlerError("The platform server's certificate is not trusted", {
        path: ["endpoint"],
        detail:
          `${check.endpoint} answered with a TLS certificate this provider does not trust (${tls}). ` +
          (tls === "ERR_TLS_CERT_ALTNAME_INVALID" || tls === "CERT_HAS_EXPIRED"
            ? `Check that the certificate is valid and names the host in ${check.endpointSetting}.`
            : "If the server's certificate comes from a private CA, set NODE_EXTRA_CA_CERTS to that CA's PEM file in Terraform's environment."),
      });
    }
    throw new HandlerError("Cannot reach the platform server", {
      path: ["endpoint"],
      detail: `${check.endpoint}: ${reason}. Check ${check.endpointSetting} and that the server runs ('schemaform platform serve').`,
    });
  }
}

/** Node's codes for a server certificate the client cannot trust. */
const TLS_TRUST_ERRORS = /\b(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID|CERT_UNTRUSTED)\b/;

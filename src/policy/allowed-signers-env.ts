/**
 * The environment variable that names the allowed-signers file when no option does. Kept in a module of its own,
 * importing nothing, so the hook's option parsing does not load the YAML parser and the schema validator.
 */
export const allowedSignersEnv = 'LINKGATE_ALLOWED_SIGNERS';

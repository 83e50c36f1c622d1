/** A bundle as a source offers it after a changed poll: the manifest, its signatures, and a way to get each file. */
export interface OfferedBundle {
  readonly unchanged: false;
  /** the manifest's exact bytes */
  readonly manifest: Buffer;
  /** `manifest.json.sig`'s text, undefined when the source has none */
  readonly signature: string | undefined;
  /** what the next poll sends to learn that nothing changed (an ETag, an OCI manifest digest) */
  readonly etag: string | undefined;
  /** the bytes of one file the manifest lists, at most `maxBytes`; the caller checks the digest */
  fetchFile(name: string, digest: string, maxBytes: number): Promise<Buffer>;
}

/** What one poll of a source found: nothing new since `etag`, or a bundle to check. */
export type PollResult = { readonly unchanged: true } | OfferedBundle;

/** Where bundles are published: an OCI registry or a static https folder. */
export interface BundleSource {
  /** the reference as the user wrote it, for messages */
  readonly shownAs: string;
  /** fetches the manifest, sending `etag` so an unchanged bundle costs one small request */
  poll(etag: string | undefined): Promise<PollResult>;
}

/** Credentials for a registry or web server: anonymous when absent. */
export interface SourceCredentials {
  readonly username: string;
  readonly password: string;
}

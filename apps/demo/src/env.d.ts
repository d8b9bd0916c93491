/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** `on` builds the demo with the devtools panel included (the e2e build). */
  readonly VITE_CHATWIRE_DEVTOOLS?: string;
}

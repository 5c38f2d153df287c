/// <reference types="vite/client" />

/** Version label shown in the footer; injected from web/package.json by vite.config.ts. */
declare const __APP_VERSION__: string;

import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import pkg from './package.json' with { type: 'json' };
import { precompress } from './precompress.ts';

export default defineConfig({
  plugins: [react(), precompress()],
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
  },
  server: {
    proxy: {
      // The Host header is forwarded unchanged (no changeOrigin) because the API
      // resolves the tenant from it: open http://demo.localhost:5173 to work as "demo".
      '/api': { target: 'http://localhost:3000' },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // A library group split by the pages that use it is named after all of them
        // (mui~index~ClientCreatePage~…): keep the group's name and the content hash only.
        chunkFileNames: (chunk) => `assets/${chunk.name.split('~')[0]}-[hash].js`,
        // Libraries change far less often than the app: separate chunks stay cached across releases.
        // `entriesAware` splits a library group by the set of pages (the entry and each lazily
        // loaded route) that use its modules, so the first page loads only the parts it uses
        // instead of every component any page uses.
        codeSplitting: {
          groups: [
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion)[\\/]/, priority: 3, entriesAware: true },
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1, entriesAware: true },
          ],
        },
      },
    },
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The Conclave server the dev server forwards to. `npm start` at the repository root
 * serves the built demo itself; `npm run dev -w @conclave/demo` runs Vite with hot reload
 * and proxies the server's HTTP API, its signalling WebSocket and the SDK bundle.
 */
const serverUrl = process.env.CONCLAVE_SERVER_URL ?? 'http://localhost:8080';

export default defineConfig({
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        admin: fileURLToPath(new URL('./admin.html', import.meta.url)),
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: serverUrl, changeOrigin: true },
      '/signal': { target: serverUrl, changeOrigin: true, ws: true },
      '/sdk': { target: serverUrl, changeOrigin: true },
    },
  },
});

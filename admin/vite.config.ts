import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

// `npm run dev` (scripts/dev.mjs) runs the API on ROVA_API_ORIGIN and this dev server in front of it: the
// admin with hot reload at /admin/, every /wp-json call proxied, so cookie and nonce are same-origin as in production.
export default defineConfig({
  root: here,
  base: '/admin/',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: fileURLToPath(new URL('../dist/admin', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    reportCompressedSize: false,
  },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.ADMIN_DEV_PORT ?? 5173),
    proxy: { '/wp-json': { target: process.env.ROVA_API_ORIGIN ?? 'http://127.0.0.1:8080', changeOrigin: false } },
  },
});

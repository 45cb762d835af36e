import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const backend = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 5173,
    // The manual page imports docs/user-manual.md from the repository root.
    fs: { allow: ['../..'] },
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/dev': { target: backend, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/dev': { target: backend, changeOrigin: false },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // bench/bundle-size.ts reads it to report what the till downloads first.
    manifest: true,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks cache across deploys; heavy libraries (charts, tables) stay in the lazy
        // screen chunks that import them, so the first load carries only the shell.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 30 },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]react-query|query-core/, priority: 20 },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 20 },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
});

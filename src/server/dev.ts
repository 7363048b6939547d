/**
 * `npm run dev`: the server in watch mode on API_PORT (8080) and Vite with HMR on PORT (5173),
 * proxying /busline and /buscodepc to it (vite.config.ts).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'vite';

const apiPort = process.env.API_PORT || '8080';
process.env.API_TARGET = `http://127.0.0.1:${apiPort}`;

const server = spawn(process.execPath, ['--import', 'tsx', '--watch', 'src/server/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: apiPort, HOST: '127.0.0.1', STATIC_DIR: '/nonexistent' },
});

const vite = await createServer({ server: { port: Number(process.env.PORT || 5173) } });
await vite.listen();
vite.printUrls();

const stop = () => {
  server.kill('SIGTERM');
  void vite.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

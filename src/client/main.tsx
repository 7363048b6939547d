import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installChineseZodMessages } from '../shared/api/zod-locale';
import { App } from './app/app';
import './index.css';

installChineseZodMessages();

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

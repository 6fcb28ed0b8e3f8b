import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AdminApp } from './AdminApp';
import './admin.css';

const root = document.getElementById('admin-root');
if (!root) throw new Error('#admin-root is missing from admin.html');

createRoot(root).render(
  <StrictMode>
    <AdminApp />
  </StrictMode>,
);

import { ChatProvider } from '@chatwire/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import '@chatwire/ui/styles.css';
import './styles.css';

// One provider per app root: the chats of this page live in it.
createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <ChatProvider>
      <App />
    </ChatProvider>
  </StrictMode>,
);

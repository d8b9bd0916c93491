import { codeModeEvents } from '@chatwire/code-mode/client';
import { ChatProvider } from '@chatwire/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import '@chatwire/ui/styles.css';
import './styles.css';

// The server state (threads, the tool catalog's query) lives in React Query; live chats in the ChatProvider's registry.
const queryClient = new QueryClient();
// Code Mode on the client: each execute_typescript call's part shows its code, console and nested calls as they run.
const customEvents = [codeModeEvents];

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ChatProvider customEvents={customEvents}>
        <App />
      </ChatProvider>
    </QueryClientProvider>
  </StrictMode>,
);

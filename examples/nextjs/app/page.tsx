import { Chat } from './Chat';

export default function Page() {
  return (
    <main>
      <h1>Chat</h1>
      <Chat />
    </main>
  );
}

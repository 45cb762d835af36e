import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function DemoRegisterPage() {
  return <PlaceholderScreen screen="demoRegister" />;
}

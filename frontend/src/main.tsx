import './zod-jitless';
import './index.css';
import { startApp } from './app/bootstrap';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
void startApp(container);

BEGIN TRANSACTION;
CREATE TABLE accounts (
	id INTEGER NOT NULL, 
	name VARCHAR(80) NOT NULL, 
	name_fold VARCHAR(400) NOT NULL, 
	name_skeleton VARCHAR(400) NOT NULL, 
	password_hash TEXT, 
	public BOOLEAN DEFAULT 1 NOT NULL, 
	created_at FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name_fold), 
	UNIQUE (name_skeleton)
);
CREATE TABLE actions (
	room_id INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	action TEXT NOT NULL, 
	"by" VARCHAR(16) NOT NULL, 
	at FLOAT NOT NULL, 
	PRIMARY KEY (room_id, seq), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
INSERT INTO "actions" VALUES(1,1,0,'{"type":"roll","keep":[1,2,3]}','human',1.79665783752295708658e+09);
INSERT INTO "actions" VALUES(1,2,0,'{"type":"roll","keep":[1,3,4]}','human',1.7966578375272750854e+09);
INSERT INTO "actions" VALUES(1,3,1,'{"type":"roll","keep":[]}','human',1.7966578375291626453e+09);
INSERT INTO "actions" VALUES(1,4,1,'{"type":"roll","keep":[3,4]}','human',1.79665783753133702273e+09);
INSERT INTO "actions" VALUES(1,5,0,'{"type":"roll","keep":[1,2,3,4]}','human',1.79665783753343439102e+09);
INSERT INTO "actions" VALUES(1,6,0,'{"type":"roll","keep":[1,2,4]}','human',1.79665783753566718101e+09);
INSERT INTO "actions" VALUES(1,7,0,'{"type":"stop"}','human',1.7966578375379092693e+09);
INSERT INTO "actions" VALUES(1,8,1,'{"type":"roll","keep":[0,2,3,4]}','human',1.79665783754001879687e+09);
INSERT INTO "actions" VALUES(1,9,1,'{"type":"roll","keep":[0,3,4]}','human',1.79665783754247570039e+09);
INSERT INTO "actions" VALUES(2,1,0,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79665785273833370208e+09);
INSERT INTO "actions" VALUES(2,2,0,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79665785274156427383e+09);
INSERT INTO "actions" VALUES(2,3,1,'{"type":"rethrow"}','human',1.79665785274430894855e+09);
INSERT INTO "actions" VALUES(2,4,1,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79665785274712967874e+09);
INSERT INTO "actions" VALUES(2,5,1,'{"type":"rethrow"}','human',1.79665785274908161158e+09);
INSERT INTO "actions" VALUES(2,6,1,'{"type":"rethrow"}','human',1.79665785275168633458e+09);
INSERT INTO "actions" VALUES(2,7,1,'{"type":"rethrow"}','human',1.79665785275354027749e+09);
INSERT INTO "actions" VALUES(3,1,0,'{"type":"book","category":"6-6-6"}','human',1.79665786823867487903e+09);
INSERT INTO "actions" VALUES(3,2,1,'{"type":"book","category":"two-triplets"}','human',1.79665786824275946617e+09);
INSERT INTO "actions" VALUES(3,3,0,'{"type":"book","category":"two-triplets"}','human',1.79665786824505424503e+09);
INSERT INTO "actions" VALUES(3,4,1,'{"type":"set-aside","dice":[0,5]}','human',1.7966578682471063137e+09);
INSERT INTO "actions" VALUES(3,5,1,'{"type":"book","category":"three-pairs"}','human',1.79665786824899840349e+09);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0004');
CREATE TABLE bot_ratings (
	pool VARCHAR(200) NOT NULL, 
	bot VARCHAR(40) NOT NULL, 
	mu FLOAT NOT NULL, 
	sigma FLOAT NOT NULL, 
	PRIMARY KEY (pool, bot)
);
CREATE TABLE challenges (
	handle_hash VARCHAR(64) NOT NULL, 
	purpose VARCHAR(16) NOT NULL, 
	challenge VARCHAR(200) NOT NULL, 
	payload TEXT DEFAULT '' NOT NULL, 
	expires_at FLOAT NOT NULL, 
	PRIMARY KEY (handle_hash)
);
CREATE TABLE chat (
	id INTEGER NOT NULL, 
	room_id INTEGER NOT NULL, 
	seat INTEGER, 
	name VARCHAR(80) NOT NULL, 
	text TEXT NOT NULL, 
	at FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
CREATE TABLE passkeys (
	credential_id VARCHAR(400) NOT NULL, 
	account_id INTEGER NOT NULL, 
	public_key TEXT NOT NULL, 
	sign_count INTEGER DEFAULT '0' NOT NULL, 
	created_at FLOAT NOT NULL, 
	PRIMARY KEY (credential_id), 
	FOREIGN KEY(account_id) REFERENCES accounts (id) ON DELETE CASCADE
);
CREATE TABLE presence (
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	process VARCHAR(16) NOT NULL, 
	seen_at FLOAT NOT NULL, 
	PRIMARY KEY (room_id, seat, process), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
CREATE TABLE rated_results (
	room_id INTEGER NOT NULL, 
	pool VARCHAR(200) NOT NULL, 
	finished_at FLOAT NOT NULL, 
	places TEXT NOT NULL, 
	PRIMARY KEY (room_id)
);
CREATE TABLE rooms (
	id INTEGER NOT NULL, 
	code VARCHAR(32) NOT NULL, 
	game VARCHAR(40) NOT NULL, 
	options TEXT NOT NULL, 
	room_options TEXT NOT NULL, 
	public BOOLEAN NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	seed VARCHAR(48) NOT NULL, 
	commitment VARCHAR(64) NOT NULL, 
	host_token_hash VARCHAR(64) NOT NULL, 
	seq INTEGER NOT NULL, 
	results TEXT, 
	note TEXT NOT NULL, 
	created_at FLOAT NOT NULL, 
	updated_at FLOAT NOT NULL, entropy VARCHAR(16) DEFAULT 'server' NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "rooms" VALUES(1,'tBcRu8MHtPSC47N6','dice-duel','{"mode": "multi"}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400, "rated": false}',0,'playing','222272123036926388200352547833445586869','dc1243c475710081f0fc77c12c9df1bb1713ecaf767693ea46864167ae646af4','6738356c28b78206d6f188e5ac85e993019138883cfa383430ed06315b85ab4b',9,NULL,'',1.79665782235515141484e+09,1.79665783754247570039e+09,'players-v2');
INSERT INTO "rooms" VALUES(2,'l958R_u7s9JqD_Re','decathlon','{"variant": "points", "events": ["100m", "long-jump"]}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400, "rated": false}',0,'playing','314995406928790480897401846110237879513','780b06a35d908359545b63553aebc7ab27634c32b16bda2082c39fbd448d77e3','e3d0364c70872008e0b88f3e1ee3a6d81b13238e974a5acf0c4f2e4a0ee88998',7,NULL,'',1.7966578376054501533e+09,1.79665785275354027749e+09,'players-v2');
INSERT INTO "rooms" VALUES(3,'VHL5_RsgPt_X3wt3','wurfeltod','{}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400, "rated": false}',0,'playing','130337991945597251480875241471381438522','a46d65cf522cfecfda93475a0dc0c2e9903e3ca43842cb728c39150d8aca0eec','cf3198dff9a1511338c2524df661deb74e12eff5339db421bbed90cfad8cf6bd',5,NULL,'',1.79665785283522653581e+09,1.79665786824899840349e+09,'players-v2');
CREATE TABLE seats (
	id INTEGER NOT NULL, 
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	bot VARCHAR(40) NOT NULL, 
	name VARCHAR(80) NOT NULL, 
	token_hash VARCHAR(64), 
	away_since FLOAT, contribution VARCHAR(800), contributed_by VARCHAR(8), account_id INTEGER, 
	PRIMARY KEY (id), 
	UNIQUE (room_id, seat), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
INSERT INTO "seats" VALUES(1,1,0,'human','','Old0','eb9f6d5b99640b43addd6818cea5d9ac5fac9ca29f300c6f2a79c5dca5b793b1',1.79665783754471278192e+09,'cfaab8816c59c7b130a25fca5057941a','server',NULL);
INSERT INTO "seats" VALUES(2,1,1,'human','','Old1','e4858ffd46ab386be8b5126c2136817e790674024ed592c36f7a5728ef5bf832',1.79665783754864311211e+09,'e3356b177bbd1e59699629584b58139a','server',NULL);
INSERT INTO "seats" VALUES(3,2,0,'human','','Old0','6e9d4620c7116eba8d726507688bdcbfdf797ed5eed4435278f8340c6a77baed',1.796657852756465435e+09,'895e6bbbab970d607fc65c46fbad3d4f','server',NULL);
INSERT INTO "seats" VALUES(4,2,1,'human','','Old1','2f25202d1da4e3993920767c0e0d08f5cba2a2f6c1d08f26ffdb443323f1c519',1.7966578527637765408e+09,'b0eea393c07d3a6e76756520cd3f627e','server',NULL);
INSERT INTO "seats" VALUES(5,3,0,'human','','Old0','13bda1ff43af68fff215021213d651bee88a618c131e461882bc067f376a5331',1.79665786825083398812e+09,'ada16938b9139041940396056ff860a9','server',NULL);
INSERT INTO "seats" VALUES(6,3,1,'human','','Old1','9de3a5c16d834e522313a3d7408ac1e21558fa84c1590c3235797f0b5bc2e5af',1.79665786825332093237e+09,'9a6a00b18505c4e38143ee7e6196dc74','server',NULL);
CREATE TABLE sessions (
	token_hash VARCHAR(64) NOT NULL, 
	account_id INTEGER NOT NULL, 
	label VARCHAR(120) DEFAULT '' NOT NULL, 
	created_at FLOAT NOT NULL, 
	seen_at FLOAT NOT NULL, 
	PRIMARY KEY (token_hash), 
	FOREIGN KEY(account_id) REFERENCES accounts (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ix_rooms_code ON rooms (code);
CREATE INDEX ix_rooms_status ON rooms (status);
CREATE INDEX ix_seats_room_id ON seats (room_id);
CREATE INDEX ix_seats_token_hash ON seats (token_hash);
CREATE INDEX ix_chat_room_id ON chat (room_id);
CREATE INDEX ix_presence_process ON presence (process);
CREATE INDEX ix_sessions_account_id ON sessions (account_id);
CREATE INDEX ix_passkeys_account_id ON passkeys (account_id);
CREATE INDEX ix_challenges_expires_at ON challenges (expires_at);
CREATE INDEX ix_rated_results_pool ON rated_results (pool);
CREATE INDEX ix_seats_account_id ON seats (account_id);
COMMIT;

BEGIN TRANSACTION;
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
INSERT INTO "actions" VALUES(1,1,1,'{"type":"roll","keep":[]}','human',1.79661560466596293447e+09);
INSERT INTO "actions" VALUES(1,2,1,'{"type":"roll","keep":[2,4]}','human',1.79661560467327880864e+09);
INSERT INTO "actions" VALUES(1,3,1,'{"type":"stop"}','human',1.79661560467514824866e+09);
INSERT INTO "actions" VALUES(1,4,0,'{"type":"roll","keep":[1,2,4]}','human',1.79661560467693686487e+09);
INSERT INTO "actions" VALUES(1,5,0,'{"type":"roll","keep":[0,1,3]}','human',1.79661560467848825453e+09);
INSERT INTO "actions" VALUES(1,6,1,'{"type":"roll","keep":[0,2,3,4]}','human',1.79661560467954659458e+09);
INSERT INTO "actions" VALUES(1,7,1,'{"type":"roll","keep":[0,3,4]}','human',1.79661560468132090566e+09);
INSERT INTO "actions" VALUES(1,8,1,'{"type":"take","combination":"three-of-a-kind","source":"plate"}','human',1.79661560468261361118e+09);
INSERT INTO "actions" VALUES(1,9,0,'{"type":"roll","keep":[0,2]}','human',1.79661560468378496174e+09);
INSERT INTO "actions" VALUES(2,1,1,'{"type":"rethrow"}','human',1.79661561981889700886e+09);
INSERT INTO "actions" VALUES(2,2,1,'{"type":"rethrow"}','human',1.79661561982121372217e+09);
INSERT INTO "actions" VALUES(2,3,1,'{"type":"rethrow"}','human',1.79661561982227087016e+09);
INSERT INTO "actions" VALUES(2,4,1,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79661561982332038884e+09);
INSERT INTO "actions" VALUES(2,5,1,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79661561982489371295e+09);
INSERT INTO "actions" VALUES(2,6,0,'{"type":"rethrow"}','human',1.79661561982621049886e+09);
INSERT INTO "actions" VALUES(2,7,0,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79661561982716464999e+09);
INSERT INTO "actions" VALUES(3,1,0,'{"type":"set-aside","dice":[0,3]}','human',1.79661563499119615551e+09);
INSERT INTO "actions" VALUES(3,2,0,'{"type":"book","category":"three-pairs"}','human',1.79661563522209501262e+09);
INSERT INTO "actions" VALUES(3,3,1,'{"type":"set-aside","dice":[0,1,2,3,4]}','human',1.79661563522818279264e+09);
INSERT INTO "actions" VALUES(3,4,1,'{"type":"book","category":"four-of-a-kind"}','human',1.79661563522962284093e+09);
INSERT INTO "actions" VALUES(3,5,0,'{"type":"scratch","category":"sequential-pairs"}','human',1.79661563523082876202e+09);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0002');
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
INSERT INTO "rooms" VALUES(1,'57m-l3oJK4MVtv4f','dice-duel','{"mode": "multi"}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400}',0,'playing','228452926706714571493150888408775280367','37f1fb76d674445be6a9bfc2df7a794eb3f304a6f6c3706a770ee33a3c6045c6','9477d07c1886de88c5110b6bec9c109acd066e652e0ba6dba7ee4fb56163cfbe',9,NULL,'',1.79661558953867864611e+09,1.79661560468378496174e+09,'players-v1');
INSERT INTO "rooms" VALUES(2,'DCrRMNfnGpQKV4Wx','decathlon','{"variant": "points", "events": ["100m", "long-jump"]}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400}',0,'playing','148541178659675100798638197632595049323','e148b10059216380956b354bc11d553c9b33e295d6f3f6d2cb0768a9e37fbb2a','732f8b0b5be9d1e0c71a32d545a1ed89834f870281a7142742093a6d4b4374d7',7,NULL,'',1.79661560472547602654e+09,1.79661561982716464999e+09,'players-v1');
INSERT INTO "rooms" VALUES(3,'eW0IQoCHhNq1h0x_','wurfeltod','{}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400}',0,'playing','161321197605606233038777933868555951288','5130aed1eb511ac3217a4374f5a017c24de2005f7550a912d9f68b172ee8e117','8d39c70ba9149d0d9f681cf17173a5536a982c51aed9decfceb5c496b66dc55b',5,NULL,'',1.79661561987149977683e+09,1.79661563523082876202e+09,'players-v1');
CREATE TABLE seats (
	id INTEGER NOT NULL, 
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	bot VARCHAR(40) NOT NULL, 
	name VARCHAR(80) NOT NULL, 
	token_hash VARCHAR(64), 
	away_since FLOAT, contribution VARCHAR(800), contributed_by VARCHAR(8), 
	PRIMARY KEY (id), 
	UNIQUE (room_id, seat), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
INSERT INTO "seats" VALUES(1,1,0,'human','','Old0','0b9dc19f4f6e47b5b57c64608056ea5df3c477e3efdee8542e57c3ab0258250a',1.79661560468523716924e+09,'99a52239173c9a219435c5c27af920e4','server');
INSERT INTO "seats" VALUES(2,1,1,'human','','Old1','c35735adf235773501f0dbbdb4f07e1f5a3eb53a71f750173490f29f581457d9',1.79661560468865895271e+09,'e9d775f1c05b77361a9bcdaafd18113f','server');
INSERT INTO "seats" VALUES(3,2,0,'human','','Old0','43ed7e3a6c3b26ab15402076904ea2c6e134da1a7f8efa64c08aec943757e635',1.79661561982820940021e+09,'a38d7f52bfec2bd494b470fa91d4f58a','server');
INSERT INTO "seats" VALUES(4,2,1,'human','','Old1','32e6fb500d30bd538c74215e0a6de6ef04dd832774ef60c1a1ad1bd6a36d6fc5',1.79661561983166432384e+09,'c0a6b3d61a2a32c2e61ded44b6fd2ac4','server');
INSERT INTO "seats" VALUES(5,3,0,'human','','Old0','7b6662a8999320238a6c7583762ad8bc684ec32bf99bcefa8736532ba2c39cda',1.79661563523194551467e+09,'7ed64c412cf8eb2541222e920286ff3d','server');
INSERT INTO "seats" VALUES(6,3,1,'human','','Old1','66c68b28597688c8799d54670f09f04514c40f072dd485ac10f2f7eccb408f6a',1.79661563523453283314e+09,'79086cdb22f74aac535b8299613c98d2','server');
CREATE UNIQUE INDEX ix_rooms_code ON rooms (code);
CREATE INDEX ix_rooms_status ON rooms (status);
CREATE INDEX ix_seats_room_id ON seats (room_id);
CREATE INDEX ix_seats_token_hash ON seats (token_hash);
CREATE INDEX ix_chat_room_id ON chat (room_id);
COMMIT;
